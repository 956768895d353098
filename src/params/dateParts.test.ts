import { describe, expect, it } from 'vitest';
import { BoundParams } from './boundParams.js';
import { bindDatePart, datePartOfName, datePartOfOptions, namesDatePart } from './dateParts.js';
import { applyFormats, parseFormatSpec } from './format.js';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => String(from + i));

describe('which part of a date a control holds, from the control itself', () => {
  it('reads a select by its options, placeholders aside', () => {
    expect(datePartOfOptions(['Month', ...MONTHS])).toBe('month');
    expect(datePartOfOptions(['--', ...MONTHS.map((month) => month.slice(0, 3))])).toBe('month');
    expect(datePartOfOptions(['MM', ...range(1, 12).map((n) => n.padStart(2, '0'))])).toBe('month');
    expect(datePartOfOptions(['Day', ...range(1, 31)])).toBe('day');
    expect(datePartOfOptions(['Year', ...range(1920, 2010).reverse()])).toBe('year');
    // A count, a rating, a quantity: no part of a date.
    expect(datePartOfOptions(['0', '1', '2', '3'])).toBeUndefined();
    expect(datePartOfOptions(range(1, 10))).toBeUndefined();
    expect(datePartOfOptions(['Small', 'Medium', 'Large'])).toBeUndefined();
  });
  it('reads a box by its names, only when they name one part and nothing else', () => {
    expect(datePartOfName('DD')).toBe('day');
    expect(datePartOfName('Birth year')).toBe('year');
    expect(datePartOfName('Month (MM)')).toBe('month');
    expect(datePartOfName('dob_year birthYear')).toBe('year');
    expect(datePartOfName('Day and month')).toBeUndefined();
    expect(datePartOfName('Quantity')).toBeUndefined();
    // Named for something a day, a month or a year is not.
    expect(datePartOfName('Hours per day')).toBeUndefined();
    expect(datePartOfName('Expiration month')).toBeUndefined();
    expect(datePartOfName('Tax year')).toBeUndefined();
  });
  it('takes a select whose options read as a part only when its names say a date or that part', () => {
    expect(namesDatePart('month', 'month')).toBe(true);
    expect(namesDatePart('Date of birth dob_m', 'month')).toBe(true);
    expect(namesDatePart('birthYear', 'year')).toBe(true);
    expect(namesDatePart('', 'month')).toBe(false);
    expect(namesDatePart('Hour', 'month')).toBe(false);
    expect(namesDatePart('exp_month Card expiry', 'month')).toBe(false);
    expect(namesDatePart('Payment day', 'day')).toBe(false);
    expect(namesDatePart('Day', 'month')).toBe(false);
  });
});

describe('binding the part a control shows', () => {
  const bind = (part: 'year' | 'month' | 'day', text: string, values: Record<string, string>) => bindDatePart(part, text, BoundParams.of(values));

  it('binds the part through the reading the value can be read in', () => {
    const month = bind('month', 'October', { dob: '10/11/2011', patient: 'Ann' });
    expect(month).toEqual({ names: ['dob'], formats: 'from:date:MM/DD/YYYY|date:MMMM' });
    const spec = (bound: typeof month) => (bound && 'names' in bound ? bound.formats : '');
    expect(applyFormats('3/5/2024', parseFormatSpec(spec(month)))).toBe('March');
    expect(applyFormats('3/5/2024', parseFormatSpec(spec(bind('day', '11', { dob: '10/11/2011' }))))).toBe('5');
    expect(applyFormats('2024-03-05', parseFormatSpec(spec(bind('day', '09', { dob: '2011-10-09' }))))).toBe('05');
    expect(applyFormats('3/5/2024', parseFormatSpec(spec(bind('year', '2011', { dob: '10/11/2011' }))))).toBe('2024');
    expect(applyFormats('2024-03-05', parseFormatSpec(spec(bind('month', '10', { dob: '2011-10-11' }))))).toBe('3');
  });

  it('guards what cannot be told: a day equal to the month, two dates with the part, a part of no date', () => {
    expect(bind('month', 'May', { dob: '05/05/2011' })).toEqual({ literal: ['dob'] });
    expect(bind('month', 'October', { dob: '10/11/2011', visit: '2024-10-01' })).toEqual({ literal: ['dob', 'visit'] });
    expect(bind('month', 'October', { dob: '10/11/2011', same: '10/11/2011' })).toEqual({ names: ['dob', 'same'], formats: 'from:date:MM/DD/YYYY|date:MMMM' });
    expect(bind('day', '12', { dob: '10/11/2011' })).toBeUndefined();
    expect(bind('day', '11', { quantity: '11' })).toBeUndefined();
  });
});

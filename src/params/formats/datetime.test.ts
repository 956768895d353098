import { describe, expect, it } from 'vitest';
import { BoundParams } from '../boundParams.js';
import { dateTimeTemplate } from '../dateTimeValue.js';
import { applyFormats, formatSpec, parseFormatSpec } from '../format.js';
import { dateTimeReadings } from './datetime.js';

describe('a date and a time given as one value, as a datetime-local field holds it', () => {
  it.each([
    ['2020/08/29 2:30 PM', 'datetime:YYYY/MM/DD h:mm A', '2021/03/14 9:05 AM', '2021-03-14T09:05'],
    ['08/29/2020 14:30', 'datetime:MM/DD/YYYY HH:mm', '3/4/2021 00:15', '2021-03-04T00:15'],
    ['29.08.2020 2:30pm', 'datetime:DD.MM.YYYY h:mm A', '04.03.2021 12:00am', '2021-03-04T00:00'],
    ['Aug 29, 2020, 2:30 PM', 'datetime:MMM D, YYYY, h:mm A', 'December 1, 2019, 11:59 PM', '2019-12-01T23:59'],
    ['2020-08-29 14:30', 'datetime:YYYY-MM-DD HH:mm', '2021-03-14 09:05', '2021-03-14T09:05'],
  ])('%s reads as %s; %s becomes %s', (value, spec, next, expected) => {
    const readings = dateTimeReadings(value, applyFormats(value, parseFormatSpec(spec))!);
    expect(readings !== 'none' && readings !== 'ambiguous' ? formatSpec(readings) : readings).toBe(spec);
    expect(applyFormats(next, parseFormatSpec(spec))).toBe(expected);
  });

  it('takes a value in the field’s own form as it is, and refuses what does not read', () => {
    expect(dateTimeReadings('2020-08-29T14:30', '2020-08-29T14:30')).toEqual([]);
    expect(applyFormats('2022-01-02T03:04', parseFormatSpec('datetime:MM/DD/YYYY HH:mm'))).toBe('2022-01-02T03:04');
    expect(applyFormats('13/29/2020 14:30', parseFormatSpec('datetime:MM/DD/YYYY HH:mm'))).toBeNull();
    expect(applyFormats('08/29/2020', parseFormatSpec('datetime:MM/DD/YYYY HH:mm'))).toBeNull();
    expect(dateTimeReadings('2020/08/29 2:30 PM', '2020-08-29T14:31')).toBe('none');
  });

  it('keeps a day that could be the month ambiguous, and never binds two parameters that disagree', () => {
    expect(dateTimeReadings('05/05/2024 14:30', '2024-05-05T14:30')).toBe('ambiguous');
    expect(dateTimeTemplate('2024-05-05T14:30', BoundParams.of({ start: '05/05/2024 14:30' }))).toEqual({ literal: ['start'] });
    expect(dateTimeTemplate('2020-08-29T14:30', BoundParams.of({ start: '2020/08/29 2:30 PM', note: 'x' }))).toEqual({ template: '{{start|datetime:YYYY/MM/DD h:mm A}}', ambiguous: [] });
    expect(dateTimeTemplate('2020-08-29T14:30', BoundParams.of({ start: '2020/08/29 2:30 PM', planned: '08/29/2020 14:30' }))).toEqual({ literal: ['start', 'planned'] });
    expect(dateTimeTemplate('2020-08-29T14:30', BoundParams.of({ note: 'x' }))).toBeUndefined();
  });

  it('refuses a malformed pattern', () => {
    expect(() => parseFormatSpec('datetime:MM/DD/YYYY')).toThrow(/datetime pattern/);
  });
});

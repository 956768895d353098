import { describe, expect, it } from 'vitest';
import { BoundParams } from '../params/boundParams.js';
import { formatCueDifference, storedFormatCue, typesInLearnedFormat, UNREAD_CUE } from './formatCue.js';

const params = (values: Record<string, string>, secrets: string[] = []) => BoundParams.of(values, { secrets });

describe('typesInLearnedFormat', () => {
  it('is true for a value rendered in a date, time, number, money or phone format', () => {
    expect(typesInLearnedFormat('{{start|from:date:D MMM YYYY|date:DD/MM/YYYY}}')).toBe(true);
    expect(typesInLearnedFormat('{{at|time:h:mm A}}')).toBe(true);
    expect(typesInLearnedFormat('{{amount|number:#,##0.00}}')).toBe(true);
    expect(typesInLearnedFormat('Due {{due|date:MM/DD/YYYY}}')).toBe(true);
  });
  it('is false for plain values, case, words and yes/no, and for literal text', () => {
    expect(typesInLearnedFormat('{{name}}')).toBe(false);
    expect(typesInLearnedFormat('{{name|word:1|upper}}')).toBe(false);
    expect(typesInLearnedFormat('{{agree|bool:Yes/No}}')).toBe(false);
    expect(typesInLearnedFormat('03/04/2025')).toBe(false);
  });
});

describe('formatCueDifference', () => {
  const none = params({});
  it('passes a cue that reads the same, whitespace and case aside', () => {
    expect(formatCueDifference({ placeholder: 'dd/mm/yyyy', after: 'DD/MM/YYYY Days' }, { placeholder: ' DD/MM/YYYY ', after: 'DD/MM/YYYY  Days' }, none)).toBeUndefined();
    expect(formatCueDifference({}, {}, none)).toBeUndefined();
  });
  it('names each part that changed, with what was recorded', () => {
    expect(formatCueDifference({ placeholder: 'dd/mm/yyyy' }, { placeholder: 'mm/dd/yyyy' }, none)).toBe('placeholder "mm/dd/yyyy" (recorded "dd/mm/yyyy")');
    expect(formatCueDifference({ after: 'DD/MM/YYYY' }, { after: 'MM/DD/YYYY', describedBy: 'US dates' }, none)).toBe('description "US dates" (recorded none), text after it "MM/DD/YYYY" (recorded "DD/MM/YYYY")');
  });
  it('takes a cue gained or lost for a change: a field that said nothing and now asks for a format is not the same', () => {
    expect(formatCueDifference({}, { placeholder: 'mm/dd/yyyy' }, none)).toBe('placeholder "mm/dd/yyyy" (recorded none)');
    expect(formatCueDifference({ title: 'Day first' }, {}, none)).toBe('title none (recorded "Day first")');
  });
  it('takes a cue that could not be read for a change, on replay or when recorded', () => {
    expect(formatCueDifference({ placeholder: 'dd/mm/yyyy' }, undefined, none)).toMatch(/could not be read/);
    expect(formatCueDifference(UNREAD_CUE, {}, none)).toMatch(/could not be read when recorded/);
  });
  it('compares a long description whole: a format said at its end is not cut off', () => {
    const long = (format: string) => `The first day of your leave. Requests with less than two weeks of notice need your manager's approval. Format: ${format}`;
    const stored = storedFormatCue({ describedBy: long('DD/MM/YYYY') }, none);
    expect(stored.describedBy!.length).toBeLessThanOrEqual(80);
    expect(formatCueDifference(stored, { describedBy: long('DD/MM/YYYY') }, none)).toBeUndefined();
    expect(formatCueDifference(stored, { describedBy: long('MM/DD/YYYY') }, none)).toMatch(/^description "The first day/);
  });
});

describe('storedFormatCue', () => {
  it('keeps a secret the cue shows as its {{name}}, and compares it so on replay, never showing it', () => {
    const run = params({ pin: '4711' }, ['pin']);
    const stored = storedFormatCue({ after: 'last PIN 4711' }, run);
    expect(JSON.stringify(stored)).not.toContain('4711');
    expect(formatCueDifference(stored, { after: 'last PIN 4711' }, run)).toBeUndefined();
    expect(formatCueDifference(stored, { after: 'last PIN 4711 (expired)' }, run)).not.toContain('4711');
  });
});

import { describe, expect, it } from 'vitest';
import { RoteError } from '../../errors/roteError.js';
import { applyFormats, formatSpec, kindImpliedBy, parseFormatSpec, renderingsOf, type Format } from '../format.js';

describe('format specs', () => {
  it.each([
    'date:MM/DD/YYYY', 'date:MMMM D, YYYY', 'time:h:mm A', 'upper', 'lower', 'title', 'number:#,##0.00',
    'money:$#,##0.00', 'money:€0.##', 'phone:(###) ###-####', 'phone:+1 ### ### ####', 'word:1', 'word:-1', 'word:1|upper',
    'date:DD-MMM-YYYY|upper',
  ])('round-trips %s', (spec) => {
    expect(formatSpec(parseFormatSpec(spec))).toBe(spec);
  });

  it('parses into the format union', () => {
    expect(parseFormatSpec('word:-1|upper')).toEqual([{ kind: 'word', index: -1 }, { kind: 'case', to: 'upper' }]);
    expect(parseFormatSpec('time:h:mm A')).toEqual([{ kind: 'time', pattern: 'h:mm A' }]);
    expect(parseFormatSpec('')).toEqual([]);
    expect(formatSpec([])).toBe('');
  });

  it('names the bad format and what is allowed', () => {
    expect(() => parseFormatSpec('date:QQ')).toThrow(
      'format "date:QQ" is not valid: a date pattern may use YYYY, YY, MMMM, MMM, MM, M, DD, D and separators',
    );
    expect(() => parseFormatSpec('word:1|date:YYY')).toThrow('format "date:YYY" in "word:1|date:YYY" is not valid');
    expect(() => parseFormatSpec('time:h:mm')).toThrow(/h or hh needs A or a/);
    expect(() => parseFormatSpec('number:#,##0.')).toThrow(/a number pattern is/);
    expect(() => parseFormatSpec('number:$0.00')).toThrow(/a number pattern is/);
    expect(() => parseFormatSpec('phone:555')).toThrow(/# for each digit/);
    expect(() => parseFormatSpec('word:0')).toThrow(/word takes a whole number/);
    expect(() => parseFormatSpec('upper:x')).toThrow(/expected date:<pattern>/);
    expect(() => parseFormatSpec('date:MM}}')).toThrow(/\| \{ \}/);
    expect(() => parseFormatSpec('upper||lower')).toThrow(RoteError);
    try {
      parseFormatSpec('shout');
    } catch (error) {
      expect(RoteError.isInstance(error) && error.code).toBe('invalid-argument');
    }
  });

  it('refuses to print a malformed format', () => {
    expect(() => formatSpec([{ kind: 'date', pattern: 'QQ' }])).toThrow(RoteError);
    expect(() => formatSpec([{ kind: 'word', index: 1.5 }])).toThrow(/word takes/);
  });
});

describe('applyFormats', () => {
  it('returns the value unchanged for no formats', () => {
    expect(applyFormats('anything at all', [])).toBe('anything at all');
  });

  it('returns null, never throws, for values a format cannot read', () => {
    const date: Format[] = [{ kind: 'date', pattern: 'MM/DD/YYYY' }];
    expect(applyFormats('2023-02-30', date)).toBeNull();
    expect(applyFormats('2024-02-29', date)).toBe('02/29/2024');
    expect(applyFormats('1990-4-1', date)).toBeNull();
    expect(applyFormats('04/01/1990', date)).toBeNull();
    expect(applyFormats('24:00', [{ kind: 'time', pattern: 'HH:mm' }])).toBeNull();
    expect(applyFormats('8pm', [{ kind: 'time', pattern: 'HH:mm' }])).toBeNull();
    expect(applyFormats('Cher', [{ kind: 'word', index: 2 }])).toBeNull();
    expect(applyFormats('1990-04-01', [{ kind: 'date', pattern: 'QQ' }])).toBeNull();
  });

  it('applies formats left to right', () => {
    expect(applyFormats('ada king lovelace', [{ kind: 'word', index: -1 }, { kind: 'case', to: 'title' }])).toBe('Lovelace');
    expect(applyFormats('1990-04-01', [{ kind: 'date', pattern: 'MMMM YYYY' }, { kind: 'case', to: 'upper' }])).toBe('APRIL 1990');
  });
});

describe('kindImpliedBy', () => {
  it('names the kind a rendering implies, none for case and word', () => {
    expect(kindImpliedBy(parseFormatSpec('date:MM/DD/YYYY'))).toBe('date');
    expect(kindImpliedBy(parseFormatSpec('date:DD-MMM-YYYY|upper'))).toBe('date');
    expect(kindImpliedBy(parseFormatSpec('time:h:mm A'))).toBe('time');
    expect(kindImpliedBy(parseFormatSpec('number:0.00'))).toBe('number');
    expect(kindImpliedBy(parseFormatSpec('money:$0.00'))).toBe('money');
    expect(kindImpliedBy(parseFormatSpec('phone:##########'))).toBe('phone');
    expect(kindImpliedBy(parseFormatSpec('word:1|upper'))).toBeUndefined();
    expect(kindImpliedBy([])).toBeUndefined();
  });
});

describe('renderingsOf', () => {
  it('lists renderings of three characters or more, longest first, identity included', () => {
    const renderings = renderingsOf('John Smith', 'string');
    const texts = renderings.map((rendering) => rendering.text);
    expect(texts[0]).toBe('John Smith');
    expect(renderings[0]!.inference).toEqual({ kind: 'match', formats: [] });
    expect(texts).toEqual(expect.arrayContaining(['JOHN SMITH', 'John', 'Smith', 'SMITH']));
    expect(renderings.find((rendering) => rendering.text === 'Smith')!.inference).toEqual({ kind: 'match', formats: [{ kind: 'word', index: -1 }] });
    expect(texts.every((text, index) => index === 0 || text.length <= texts[index - 1]!.length)).toBe(true);
  });

  it('marks ambiguous renderings so the caller keeps them literal', () => {
    const renderings = renderingsOf('2001-01-01', 'date');
    expect(renderings.find((rendering) => rendering.text === '01/01/2001')!.inference.kind).toBe('ambiguous');
    expect(renderings.find((rendering) => rendering.text === 'January 1, 2001')!.inference).toEqual({
      kind: 'match',
      formats: [{ kind: 'date', pattern: 'MMMM D, YYYY' }],
    });
    expect(renderings.some((rendering) => rendering.text.length < 3)).toBe(false);
  });

  it('agrees with inferFormat for every rendering', async () => {
    const { inferFormat } = await import('../format.js');
    for (const [value, kind] of [['1990-04-01', undefined], ['20:04', 'time'], ['1234.5', undefined], ['5551234567', 'phone'], ['Mary Ann Lee', 'string']] as const) {
      for (const rendering of renderingsOf(value, kind)) expect(inferFormat(value, rendering.text, kind)).toEqual(rendering.inference);
    }
  });
});

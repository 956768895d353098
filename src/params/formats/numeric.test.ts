import { describe, expect, it } from 'vitest';
import { applyFormats, formatSpec, inferFormat, parseFormatSpec, type ParamKind } from '../format.js';

function infer(value: string, text: string, kind?: ParamKind): string {
  const inference = inferFormat(value, text, kind);
  if (inference.kind === 'match') return `match ${formatSpec(inference.formats)}`.trim();
  if (inference.kind === 'ambiguous') return `ambiguous ${inference.readings.map((reading) => formatSpec(reading)).join(' / ')}`;
  return 'none';
}

function render(value: string, spec: string): string | null {
  return applyFormats(value, parseFormatSpec(spec));
}

describe('numbers', () => {
  it.each([
    ['1234.5', '1,234.50', 'number:#,##0.00', '1234567.89', '1,234,567.89'],
    ['1234.5', '1234.50', 'number:0.00', '1234567.8', '1234567.80'],
    ['1234.5', '1,234.5', 'number:#,##0.##', '2000', '2,000'],
    ['1990', '1,990', 'number:#,##0', '1234567', '1,234,567'],
    ['123.5', '123.50', 'number:0.00', '5000', '5000.00'],
    ['7', '7.0', 'number:0.0', '12.5', '12.5'],
  ])('%s typed %s is %s; replay of %s types %s', (value, text, spec, next, expected) => {
    expect(infer(value, text, 'number')).toBe(`match ${spec}`);
    expect(infer(value, text)).toBe(`match ${spec}`);
    expect(render(next, spec)).toBe(expected);
  });

  it('reads a year-looking number as a number, never a date', () => {
    expect(infer('1990', '1990')).toBe('match');
    expect(infer('1990', '1,990', 'integer')).toBe('match number:#,##0');
    expect(infer('1990', '01/01/1990')).toBe('none');
  });

  it('finds nothing when the text is another number, rounded or not', () => {
    expect(infer('1234.5', '1,235', 'number')).toBe('none');
    expect(infer('1234.5', '1,234.60', 'number')).toBe('none');
    expect(infer('1234.5', '1,234.50', 'string')).toBe('none');
  });

  it('never rounds on replay: a value needing more decimals than the pattern shows is not rendered', () => {
    expect(render('1.005', 'number:0.00')).toBeNull();
    expect(render('5.25', 'number:0.0')).toBeNull();
    expect(render('10.5', 'money:$0')).toBeNull();
    expect(render('-2.5', 'number:0')).toBeNull();
    expect(render('2.50', 'number:0.0')).toBe('2.5');
    expect(render('1234.5', 'number:0.0#')).toBe('1234.5');
  });

  it('returns null for values that are not plain decimals', () => {
    expect(render('12abc', 'number:0.00')).toBeNull();
    expect(render('1,234.5', 'number:0.00')).toBeNull();
    expect(render('1e21', 'number:0')).toBeNull();
    expect(render('', 'number:0')).toBeNull();
  });
});

describe('money', () => {
  it.each([
    ['1234.5', '$1,234.50', 'money:$#,##0.00', '-5', '-$5.00'],
    ['1234.56', '€1234.56', 'money:€0.00', '0.5', '€0.50'],
    ['20', '£20', 'money:£0', '1500', '£1500'],
    ['-5', '-$5.00', 'money:$0.00', '12.34', '$12.34'],
  ])('%s typed %s is %s; replay of %s types %s', (value, text, spec, next, expected) => {
    expect(infer(value, text, 'money')).toBe(`match ${spec}`);
    expect(infer(value, text)).toBe(`match ${spec}`);
    expect(render(next, spec)).toBe(expected);
  });

  it('takes a bare pattern as money when the parameter is money, and as a number otherwise', () => {
    expect(infer('1234.5', '1,234.50', 'money')).toBe('match money:#,##0.00');
    expect(infer('1234.5', '1,234.50')).toBe('match number:#,##0.00');
  });
});

describe('phones', () => {
  it.each([
    ['(555) 123-4567', '5551234567', 'phone:##########', '+1 (212) 555-0199', '2125550199'],
    ['5551234567', '(555) 123-4567', 'phone:(###) ###-####', '212.555.0199', '(212) 555-0199'],
    ['5551234567', '555.123.4567', 'phone:###.###.####', '2125550199', '212.555.0199'],
    ['15551234567', '+1 555 123 4567', 'phone:+1 ### ### ####', '2125550199', '+1 212 555 0199'],
    ['5551234567', '555 1234 567', 'phone:### #### ###', '2125550199', '212 5550 199'],
  ])('%s typed %s is %s; replay of %s types %s', (value, text, spec, next, expected) => {
    expect(infer(value, text, 'phone')).toBe(`match ${spec}`);
    expect(infer(value, text)).toBe(`match ${spec}`);
    expect(render(next, spec)).toBe(expected);
  });

  it('finds nothing for other digits', () => {
    expect(infer('5551234567', '(555) 123-4568', 'phone')).toBe('none');
    expect(infer('5551234567', '123-4567', 'phone')).toBe('none');
  });

  it('cannot render a value with another digit count, or letters', () => {
    expect(render('44 20 7946 0958', 'phone:(###) ###-####')).toBeNull();
    expect(render('555-0100', 'phone:###-###-####')).toBeNull();
    expect(render('call me', 'phone:###-####')).toBeNull();
  });
});

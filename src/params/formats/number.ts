import type { Format } from '../format.js';

export const CURRENCY_SYMBOLS = ['$', '€', '£'] as const;

export const NUMBER_RULE = 'a number pattern is 0 or #,##0, optionally followed by . and 0s then #s (fixed then optional decimals), e.g. #,##0.00, 0, 0.##';
export const MONEY_RULE = 'a money pattern is an optional $, € or £ followed by a number pattern, e.g. $#,##0.00, #,##0.00';

/** Probe values that separate grouping, fixed and optional decimals, and rounding. */
export const NUMBER_PROBES = ['1234567.891', '5', '0.5', '-42.25'];

interface NumberPattern {
  symbol: string;
  grouping: boolean;
  minDecimals: number;
  maxDecimals: number;
}

interface Decimal {
  negative: boolean;
  whole: string;
  fraction: string;
}

const PATTERN = /^([$€£]?)(#,##0|0)(?:\.(0*)(#*))?$/u;

export function parseNumberPattern(pattern: string, money: boolean): NumberPattern | null {
  const match = PATTERN.exec(pattern);
  if (!match) return null;
  const symbol = match[1] ?? '';
  const zeros = match[3] ?? '';
  const optional = match[4] ?? '';
  if (symbol && !money) return null;
  if (pattern.includes('.') && zeros.length + optional.length === 0) return null;
  return { symbol, grouping: match[2] === '#,##0', minDecimals: zeros.length, maxDecimals: zeros.length + optional.length };
}

/** Reads a bound number value: plain decimal notation ('1234.5', '-3'), else null. */
export function parseDecimal(value: string): Decimal | null {
  const match = /^(-)?(\d+)(?:\.(\d+))?$/.exec(value);
  if (!match) return null;
  return { negative: match[1] === '-', whole: match[2]!, fraction: match[3] ?? '' };
}

/**
 * Renders a value with a number or money pattern, on digit strings (no float error). A value
 * needing more decimals than the pattern has is not rendered: typing a rounded amount is a wrong value.
 */
export function renderNumber(value: string, pattern: string, money: boolean): string | null {
  const decimal = parseDecimal(value);
  const format = parseNumberPattern(pattern, money);
  if (!decimal || !format) return null;
  const max = format.maxDecimals;
  // A value with more significant decimals than the pattern shows cannot be typed that way
  // without changing it (5.25 as "5.3", 10.50 as "$11"): no rendering, the step diverges.
  if (decimal.fraction.slice(max).replace(/0+$/, '') !== '') return null;
  let scaled = BigInt(decimal.whole + decimal.fraction.slice(0, max).padEnd(max, '0'));
  if ((decimal.fraction[max] ?? '0') >= '5') scaled += 1n;
  const digits = scaled.toString().padStart(max + 1, '0');
  const whole = digits.slice(0, digits.length - max);
  let fraction = digits.slice(digits.length - max);
  while (fraction.length > format.minDecimals && fraction.endsWith('0')) fraction = fraction.slice(0, -1);
  const grouped = format.grouping ? whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',') : whole;
  const sign = decimal.negative && scaled !== 0n ? '-' : '';
  return `${sign}${format.symbol}${grouped}${fraction ? `.${fraction}` : ''}`;
}

/**
 * Patterns tried for a number value, chosen so that no two render the value alike (no ambiguity
 * among them) and none rounds it (a rounded text would be a different value):
 * - decimals: none or fixed padding for whole values; for one significant decimal '.##'
 *   ("1,234.5"); fixed zeros from two up ("1,234.50").
 * - grouping only when the whole part has four digits or more: below that the text cannot show
 *   it, and the ungrouped rendering is the same number, which every number field accepts.
 */
export function numberChains(value: string, kind: 'number' | 'money', symbols: readonly string[]): Format[][] {
  const decimal = parseDecimal(value);
  if (!decimal) return [];
  const significant = decimal.fraction.replace(/0+$/, '').length;
  const fractions: string[] = [];
  if (significant === 0) fractions.push('', '.0');
  if (significant === 1) fractions.push('.##');
  for (let count = Math.max(2, significant); count <= Math.max(4, significant); count++) fractions.push(`.${'0'.repeat(count)}`);
  const wholes = BigInt(decimal.whole) >= 1000n ? ['0', '#,##0'] : ['0'];
  return symbols.flatMap((symbol) =>
    wholes.flatMap((whole) => fractions.map((fraction): Format[] => [{ kind, pattern: `${symbol}${whole}${fraction}` }])),
  );
}

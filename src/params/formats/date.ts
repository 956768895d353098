import type { Format } from '../format.js';
import { rebuild, tokenize, type Piece } from './tokens.js';

const TOKENS = ['YYYY', 'YY', 'MMMM', 'MMM', 'MM', 'M', 'DD', 'D'] as const;
type DateToken = (typeof TOKENS)[number];

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * Patterns tried when inferring. Parts (YYYY, MM/YY, MM/DD) are here too: leaving a plausible
 * reading out would turn an ambiguous text ("01/01") into a confident wrong match.
 */
export const DATE_PATTERNS = [
  'MM/DD/YYYY', 'M/D/YYYY', 'DD/MM/YYYY', 'D/M/YYYY',
  'DD.MM.YYYY', 'D.M.YYYY', 'MM.DD.YYYY',
  'YYYY-MM-DD', 'YYYY/MM/DD', 'YYYY.MM.DD', 'MM-DD-YYYY', 'DD-MM-YYYY',
  'MM/DD/YY', 'M/D/YY', 'DD/MM/YY', 'D/M/YY', 'DD.MM.YY',
  'MMDDYYYY', 'DDMMYYYY', 'YYYYMMDD',
  'MMMM D, YYYY', 'MMM D, YYYY', 'D MMMM YYYY', 'D MMM YYYY', 'DD MMM YYYY', 'DD-MMM-YYYY',
  'MMMM YYYY', 'MMM YYYY', 'YYYY', 'MM/YYYY', 'M/YYYY', 'MM/YY', 'MM/DD', 'DD/MM',
];

/** Probe values that separate day/month order, padding, year length and month-name length. */
export const DATE_PROBES = ['2003-11-25', '1987-02-07', '2024-12-31'];

export const DATE_RULE = 'a date pattern may use YYYY, YY, MMMM, MMM, MM, M, DD, D and separators';

export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

/** Reads a bound date value: ISO 'YYYY-MM-DD' naming a real calendar day, else null. */
export function parseIsoDate(value: string): CalendarDate | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return { year, month, day };
}

function daysInMonth(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
}

export function datePieces(pattern: string): Piece<DateToken>[] | null {
  return tokenize(pattern, TOKENS);
}

export function renderDate(value: string, pattern: string): string | null {
  const date = parseIsoDate(value);
  const pieces = datePieces(pattern);
  if (!date || !pieces) return null;
  return pieces.map((piece) => ('token' in piece ? renderToken(date, piece.token) : piece.literal)).join('');
}

function renderToken(date: CalendarDate, token: DateToken): string {
  const monthName = MONTHS[date.month - 1]!;
  switch (token) {
    case 'YYYY': return String(date.year).padStart(4, '0');
    case 'YY': return String(date.year % 100).padStart(2, '0');
    case 'MMMM': return monthName;
    case 'MMM': return monthName.slice(0, 3);
    case 'MM': return String(date.month).padStart(2, '0');
    case 'M': return String(date.month);
    case 'DD': return String(date.day).padStart(2, '0');
    case 'D': return String(date.day);
  }
}

/** The pattern with zero padding removed, to tell readings that differ only in padding. */
export function unpadDate(pattern: string): string {
  const pieces = datePieces(pattern);
  return pieces ? rebuild(pieces, { MM: 'M', DD: 'D' }) : pattern;
}

/** Chains tried for a date value; month names also in capitals ("01-APR-1990"). */
export function dateChains(value: string): Format[][] {
  if (!parseIsoDate(value)) return [];
  const chains: Format[][] = DATE_PATTERNS.map((pattern) => [{ kind: 'date', pattern }]);
  for (const pattern of DATE_PATTERNS.filter((p) => p.includes('MMM'))) {
    chains.push([{ kind: 'date', pattern }, { kind: 'case', to: 'upper' }]);
  }
  return chains;
}

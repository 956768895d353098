import type { Format } from '../format.js';
import { datePieces, parseIsoDate } from './date.js';
import { parseDecimal, parseNumberPattern } from './number.js';
import { parseTime, timePieces } from './time.js';

/**
 * How a user writes a value in their own data: a date as 10/11/2011 or Jan 15, 2024, a time as
 * 8:04 PM, an amount as 1,234.50. A value given so is read into the canonical form the other
 * formats render from (ISO date, 24-hour time, plain decimal), then rendered the way the field
 * took it. Which reading a value was given in is learned from what the recording typed (see
 * `from` in ../format.ts); a value the reading cannot parse is refused before any action.
 */
export type GivenFormat = Extract<Format, { kind: 'date' | 'time' | 'number' }>;

/**
 * Readings tried for a value that is not canonical. Only full dates with a four-digit year: a
 * two-digit year or a day and month alone would need a century or a year nobody gave. Patterns
 * are read leniently (1/5/2024 reads as MM/DD/YYYY, "jan 5 2024" as MMM D, YYYY), so padding
 * variants are not listed.
 */
export const GIVEN_DATES = ['MM/DD/YYYY', 'DD/MM/YYYY', 'YYYY/MM/DD', 'MM-DD-YYYY', 'DD-MM-YYYY', 'DD.MM.YYYY', 'MM.DD.YYYY', 'YYYY.MM.DD', 'MMM D, YYYY', 'D MMM YYYY', 'DD-MMM-YYYY'];
const GIVEN_TIMES = ['h:mm A'];
const GIVEN_NUMBERS = ['#,##0.##'];

const CANONICAL_TIME = /^([01]\d|2[0-3]):[0-5]\d(?::[0-5]\d)?$/;

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** The readings under which `value` parses, when it is not canonical already. */
export function givenReadings(value: string, family: 'date' | 'time' | 'number'): GivenFormat[] {
  switch (family) {
    case 'date':
      return parseIsoDate(value) ? [] : GIVEN_DATES.map((pattern): GivenFormat => ({ kind: 'date', pattern })).filter((given) => readGiven(value, given) !== null);
    case 'time':
      return parseTime(value) ? [] : GIVEN_TIMES.map((pattern): GivenFormat => ({ kind: 'time', pattern })).filter((given) => readGiven(value, given) !== null);
    case 'number': {
      if (parseDecimal(value)) return [];
      // The currency the value was given in is part of the reading: a later amount in another is refused.
      const symbol = /^\s*-?\s*([$€£])/u.exec(value)?.[1] ?? '';
      return GIVEN_NUMBERS.map((pattern): GivenFormat => ({ kind: 'number', pattern: `${symbol}${pattern}` })).filter((given) => readGiven(value, given) !== null);
    }
  }
}

/**
 * The canonical form of a value given in `given` (or already canonical): 2011-10-11 for
 * "10/11/2011" read as MM/DD/YYYY, 20:04 for "8:04 PM", 1234.50 for "$1,234.50". Null when the
 * value reads neither way.
 */
export function readGiven(value: string, given: GivenFormat): string | null {
  const text = value.trim();
  switch (given.kind) {
    case 'date':
      return parseIsoDate(text) ? text : readDate(text, given.pattern);
    case 'time':
      return isCanonicalUnder(text, given.pattern) ? canonicalTime(text) : readTime(text, given.pattern);
    case 'number':
      return parseDecimal(text) ? text : readNumber(text, given.pattern);
  }
}

/**
 * A 24-hour time is canonical only where the reading cannot take it another way: under a 12-hour
 * reading "8:04", "10:04" or "12:15" could be morning or evening, so only 00 to 09 written with
 * their zero (08:04) and 13 to 23 are read as 24-hour times.
 */
function isCanonicalUnder(text: string, pattern: string): boolean {
  if (!CANONICAL_TIME.test(text)) return false;
  const twelveHour = (timePieces(pattern) ?? []).some((piece) => 'token' in piece && (piece.token === 'h' || piece.token === 'hh'));
  return !twelveHour || /^(0\d|1[3-9]|2[0-3]):/.test(text);
}

/** Whether a given format's pattern can be read at all (a malformed one is refused by spec.ts). */
export function givenIsReadable(given: GivenFormat): boolean {
  switch (given.kind) {
    case 'date': return datePieces(given.pattern) !== null;
    case 'time': return timePieces(given.pattern) !== null;
    case 'number': return parseNumberPattern(given.pattern, true) !== null;
  }
}

/** How a reading is named in messages: `MM/DD/YYYY (e.g. "12/31/2024")`. */
export function describeGiven(given: GivenFormat): string {
  switch (given.kind) {
    case 'date': return `${given.pattern} (e.g. ${JSON.stringify(example(given.pattern, { YYYY: '2024', MMMM: 'December', MMM: 'Dec', MM: '12', M: '12', DD: '31', D: '31' }))})`;
    case 'time': return `${given.pattern} (e.g. ${JSON.stringify(example(given.pattern, { HH: '20', H: '20', hh: '08', h: '8', mm: '04', ss: '00', A: 'PM', a: 'pm' }))})`;
    case 'number': return `${given.pattern} (e.g. ${JSON.stringify(`${/^[$€£]/u.exec(given.pattern)?.[0] ?? ''}1,234.5`)})`;
  }
}

function example(pattern: string, values: Record<string, string>): string {
  const tokens = Object.keys(values).sort((a, b) => b.length - a.length);
  let out = '';
  for (let index = 0; index < pattern.length; ) {
    const token = tokens.find((candidate) => pattern.startsWith(candidate, index));
    if (token) {
      out += values[token];
      index += token.length;
    } else out += pattern[index++];
  }
  return out;
}

function readDate(text: string, pattern: string): string | null {
  const pieces = datePieces(pattern);
  if (!pieces) return null;
  const order: string[] = [];
  let source = '';
  for (const piece of pieces) {
    if ('literal' in piece) {
      source += literalSource(piece.literal);
      continue;
    }
    order.push(piece.token);
    switch (piece.token) {
      case 'YYYY': source += '(\\d{4})'; break;
      case 'YY': return null;
      case 'MMMM':
      case 'MMM': source += '(\\p{L}{3,9})\\.?'; break;
      case 'MM':
      case 'M':
      case 'DD':
      case 'D': source += '(\\d{1,2})'; break;
    }
  }
  const match = new RegExp(`^${source}$`, 'iu').exec(text);
  if (!match) return null;
  let year = 0;
  let month = 0;
  let day = 0;
  order.forEach((token, index) => {
    const part = match[index + 1]!;
    if (token === 'YYYY') year = Number(part);
    else if (token === 'MMMM' || token === 'MMM') month = monthOf(part);
    else if (token === 'MM' || token === 'M') month = Number(part);
    else day = Number(part);
  });
  const iso = `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  return parseIsoDate(iso) ? iso : null;
}

/** A month's name, whole or its first three letters (Sept too); 0 when it is none. */
function monthOf(name: string): number {
  const word = name.toLowerCase();
  const index = MONTHS.findIndex((month) => month === word || (word.length >= 3 && month.startsWith(word)));
  return index + 1;
}

function readTime(text: string, pattern: string): string | null {
  const pieces = timePieces(pattern);
  if (!pieces) return null;
  const order: string[] = [];
  let source = '';
  for (const piece of pieces) {
    if ('literal' in piece) {
      source += literalSource(piece.literal);
      continue;
    }
    order.push(piece.token);
    switch (piece.token) {
      case 'HH':
      case 'H':
      case 'hh':
      case 'h': source += '(\\d{1,2})'; break;
      case 'mm':
      case 'ss': source += '(\\d{2})'; break;
      case 'A':
      case 'a': source += '\\s*([ap])\\.?\\s*m\\.?'; break;
    }
  }
  const match = new RegExp(`^${source}$`, 'i').exec(text);
  if (!match) return null;
  let hour = -1;
  let minute = 0;
  let second = 0;
  let marker: string | undefined;
  let twelve = false;
  order.forEach((token, index) => {
    const part = match[index + 1]!;
    if (token === 'h' || token === 'hh') {
      twelve = true;
      hour = Number(part);
    } else if (token === 'H' || token === 'HH') hour = Number(part);
    else if (token === 'mm') minute = Number(part);
    else if (token === 'ss') second = Number(part);
    else marker = part.toLowerCase();
  });
  if (twelve) {
    if (hour < 1 || hour > 12 || marker === undefined) return null;
    hour = (hour % 12) + (marker === 'p' ? 12 : 0);
  }
  if (hour < 0 || hour > 23 || minute > 59 || second > 59) return null;
  return canonicalTime(`${hour}:${String(minute).padStart(2, '0')}:${String(second).padStart(2, '0')}`);
}

/** 24-hour HH:MM, with :SS only when the seconds are not zero (what a time input holds). */
function canonicalTime(text: string): string | null {
  const time = parseTime(text);
  if (!time) return null;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(time.hour)}:${pad(time.minute)}${time.second !== 0 ? `:${pad(time.second)}` : ''}`;
}

/** An amount with grouping commas and an optional currency symbol: "1,234.50", "$12,000", "-1,000". */
function readNumber(text: string, pattern: string): string | null {
  const format = parseNumberPattern(pattern, true);
  if (!format) return null;
  const match = /^(-)?\s*([$€£])?\s*(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?$/u.exec(text);
  if (!match) return null;
  if (match[3]!.includes(',') && !format.grouping) return null;
  // An amount in another currency than the recording's is not the same amount. (A reading without
  // a symbol, as stored before the symbol was kept, takes any.)
  if (format.symbol !== '' && match[2] !== undefined && match[2] !== format.symbol) return null;
  const whole = match[3]!.replace(/,/g, '');
  return `${match[1] ?? ''}${whole}${match[4] !== undefined ? `.${match[4]}` : ''}`;
}

/** A pattern's literal text, read leniently: any run of spaces, a comma with or without them. */
function literalSource(literal: string): string {
  let source = '';
  for (const char of literal) {
    if (/\s/.test(char)) source += '\\s*';
    else if (char === ',') source += '\\s*,?';
    else source += char.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return source;
}

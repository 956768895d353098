import { fold } from './fold.js';
import type { ParamKind } from './paramType.js';
import { parseIsoDate, type CalendarDate } from './formats/date.js';
import { givenReadings, readGiven } from './formats/given.js';
import { isStructuredValue } from './formats/structured.js';
import { parseTime, type ClockTime } from './formats/time.js';

/**
 * How much a piece on its own tells. A month name, AM/PM or a number of three digits or more (a
 * year, an area code) is seldom anything else: strong. A number of one or two digits (a day, a
 * month, an hour) is also a quantity, a count or a rating: weak, taken for a piece only where the
 * same value is asked in pieces elsewhere in the run (see runCommit).
 */
export type PieceStrength = 'strong' | 'weak';

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/**
 * The pieces a form may ask of a date, time, amount or phone value one field at a time, folded:
 * the value's own numbers and words (grouping aside: 1,234.50 gives 1234 and 50, never 1 and 234),
 * and for a date or time the ways a field shows a part of it (October, Oct, 5 and 05, 24 of 2024;
 * 8 and 20 of 20:04, PM). Free text has none: its words are ordinary words ("save", "next").
 */
export function piecesOf(value: string, kind?: ParamKind): Map<string, PieceStrength> {
  const pieces = new Map<string, PieceStrength>();
  if (value.trim() === '' || !isStructuredValue(value, kind)) return pieces;
  const add = (piece: string) => {
    const folded = fold(piece);
    if (folded !== '' && !folded.includes(' ')) pieces.set(folded, strengthOf(folded));
  };
  fold(value.replace(/(\d),(?=\d{3}(?!\d))/g, '$1')).split(' ').forEach(add);
  for (const date of datesOf(value, kind)) {
    const month = MONTHS[date.month - 1]!;
    [month, month.slice(0, 3), String(date.month), pad(date.month), String(date.day), pad(date.day), String(date.year), pad(date.year % 100)].forEach(add);
  }
  for (const time of timesOf(value, kind)) {
    const twelve = time.hour % 12 === 0 ? 12 : time.hour % 12;
    [String(time.hour), pad(time.hour), String(twelve), pad(twelve), pad(time.minute), time.hour < 12 ? 'am' : 'pm'].forEach(add);
  }
  return pieces;
}

function strengthOf(folded: string): PieceStrength {
  return /\p{L}/u.test(folded) || folded.length >= 3 ? 'strong' : 'weak';
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** Every calendar date the value reads as: ISO, or each reading of the user's format (month or day first alike). */
function datesOf(value: string, kind?: ParamKind): CalendarDate[] {
  if (kind !== undefined && kind !== 'date' && kind !== 'string') return [];
  const text = value.trim();
  const canonical = parseIsoDate(text) ? [text] : givenReadings(text, 'date').map((given) => readGiven(text, given));
  return canonical.flatMap((iso) => {
    const date = iso === null ? null : parseIsoDate(iso);
    return date ? [date] : [];
  });
}

/** The clock time the value reads as: 24-hour, or the user's 12-hour form. */
function timesOf(value: string, kind?: ParamKind): ClockTime[] {
  if (kind !== undefined && kind !== 'time' && kind !== 'string') return [];
  const text = value.trim();
  const canonical = parseTime(text) ? [text] : givenReadings(text, 'time').map((given) => readGiven(text, given));
  return canonical.flatMap((clock) => {
    const time = clock === null ? null : parseTime(clock);
    return time ? [time] : [];
  });
}

import type { Format } from '../format.js';
import { datePieces } from './date.js';
import { GIVEN_DATES, readGiven } from './given.js';
import { timePieces } from './time.js';

/**
 * A date and a time given as one value (`2020/08/29 2:30 PM`, `29.08.2020 14:30`), read into what
 * a datetime-local field holds (`2020-08-29T14:30`). The pattern is a date pattern, then a time
 * pattern from its first H or h (`datetime:YYYY/MM/DD h:mm A`): the date's reading decides day and
 * month order as a date's does, and a value already in the field's form passes as it is.
 */
export const DATETIME_RULE = 'a datetime pattern is a date pattern, then a time pattern from its first H or h (datetime:MM/DD/YYYY h:mm A)';

const CANONICAL = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}(?::\d{2})?)$/;
/** The time at the end of a value, after a space, a comma or a T: 14:30, 2:30 PM, 2:30pm, 14:30:05. */
const VALUE_SHAPE = /^(.*?\S)(?:\s*,\s*|\s+|T)(\d{1,2}:\d{2}(?::\d{2})?(?:\s*[ap]\.?\s*m\.?)?)$/i;
const TIME_PATTERNS = { twentyFour: 'HH:mm', twelve: 'h:mm A' } as const;

export function splitDateTimePattern(pattern: string): { date: string; time: string } | null {
  const at = pattern.search(/[Hh]/);
  if (at <= 0) return null;
  const date = pattern.slice(0, at).replace(/(?:\s*,\s*|\s+|T)$/, '');
  const time = pattern.slice(at);
  return date !== '' && datePieces(date) !== null && timePieces(time) !== null ? { date, time } : null;
}

/** The value as a datetime-local field holds it, or null when it does not read under the pattern. */
export function renderDateTime(value: string, pattern: string): string | null {
  const text = value.trim();
  if (CANONICAL.test(text)) return text;
  const parts = splitDateTimePattern(pattern);
  const shape = VALUE_SHAPE.exec(text);
  if (!parts || !shape) return null;
  const date = readGiven(shape[1]!, { kind: 'date', pattern: parts.date });
  const time = readGiven(shape[2]!, { kind: 'time', pattern: parts.time });
  return date !== null && time !== null ? `${date}T${time}` : null;
}

/**
 * The readings under which `value` is what a datetime-local field holds (`held`): one, or several
 * that disagree (05/05/2024 2:30 PM, month or day first), or none. A value already in the field's
 * form is no reading ([]: typed as it is).
 */
export function dateTimeReadings(value: string, held: string): Format[] | 'none' | 'ambiguous' {
  const text = value.trim();
  if (text === held) return [];
  const shape = VALUE_SHAPE.exec(text);
  if (!shape || !CANONICAL.test(held)) return 'none';
  const separator = text.slice(shape[1]!.length, text.length - shape[2]!.length);
  const time = /[ap]\.?\s*m/i.test(shape[2]!) ? TIME_PATTERNS.twelve : TIME_PATTERNS.twentyFour;
  const isoDate = /^\d{4}-\d{2}-\d{2}$/.test(shape[1]!);
  const dates = isoDate ? ['YYYY-MM-DD'] : GIVEN_DATES;
  const fitting = dates.map((date) => `${date}${separator}${time}`).filter((pattern) => renderDateTime(text, pattern) === held);
  if (fitting.length === 0) return 'none';
  return fitting.length === 1 ? [{ kind: 'datetime', pattern: fitting[0]! }] : 'ambiguous';
}

import type { ParamKind } from '../format.js';
import { parseIsoDate } from './date.js';
import { givenReadings } from './given.js';
import { parseDecimal } from './number.js';
import { isPhoneLike } from './phone.js';
import { parseTime } from './time.js';

/**
 * Whether a value is made of pieces a form may ask for one by one: a date (month, day, year), a
 * time (hour and minute, AM/PM), an amount (dollars and cents), a phone number (area code and
 * number). Free text is not: its words are ordinary words ("save", "next"), and a button or an
 * option that happens to share one is no piece of it.
 */
export function isStructuredValue(value: string, kind?: ParamKind): boolean {
  switch (kind) {
    case 'date':
    case 'time':
    case 'number':
    case 'integer':
    case 'money':
    case 'phone':
      return true;
    case 'boolean':
    case 'secret':
      return false;
    case 'string':
    case 'email':
    case 'enum':
    case undefined:
      break;
  }
  const text = value.trim();
  return (
    parseIsoDate(text) !== null ||
    parseTime(text) !== null ||
    parseDecimal(text) !== null ||
    isPhoneLike(text) ||
    givenReadings(text, 'date').length > 0 ||
    givenReadings(text, 'time').length > 0 ||
    givenReadings(text, 'number').length > 0
  );
}

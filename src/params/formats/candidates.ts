import type { Format, ParamKind } from '../format.js';
import { dateChains, DATE_PROBES, parseIsoDate, unpadDate } from './date.js';
import { CURRENCY_SYMBOLS, NUMBER_PROBES, numberChains } from './number.js';
import { isPhoneLike, phoneChainFromText, phoneChains, PHONE_PROBES } from './phone.js';
import { givenReadings, readGiven } from './given.js';
import { textChains, TEXT_PROBES } from './text.js';
import { timeChains, TIME_PROBES, unpadTime } from './time.js';

/** Readings are compared on probe values of their family; chains of different families never collapse. */
export type Family = 'date' | 'time' | 'number' | 'phone' | 'text';

export const PROBES: Record<Family, readonly string[]> = {
  date: DATE_PROBES,
  time: TIME_PROBES,
  number: NUMBER_PROBES,
  phone: PHONE_PROBES,
  text: TEXT_PROBES,
};

export function familyOf(chain: readonly Format[]): Family {
  const first = chain[0];
  if (first?.kind === 'from') return familyOf([first.given]);
  switch (first?.kind) {
    case 'date': return 'date';
    case 'time': return 'time';
    case 'number':
    case 'money': return 'number';
    case 'phone': return 'phone';
    default: return 'text';
  }
}

/**
 * Every chain worth trying for `value`, simplest first (the first of equivalent chains is kept).
 * The declared kind limits the families; without it the value's shape decides, and a number is
 * never read as a date (only an ISO value is).
 */
export function candidateChains(value: string, kind?: ParamKind): Format[][] {
  return [...canonicalChains(value, kind), ...givenChains(value, kind)];
}

/**
 * Chains for a value given in the user's own format (10/11/2011, 8:04 PM, 1,234.50): each
 * reading of it, alone (the canonical form a date or time input holds) and followed by every
 * chain of the canonical value it reads as. Readings that disagree (month or day first) stay
 * apart, so a text only one of them explains proves that one, and one both explain is ambiguous.
 */
function givenChains(value: string, kind?: ParamKind): Format[][] {
  const families: ('date' | 'time' | 'number')[] = [];
  switch (kind) {
    case 'date':
    case 'time':
      families.push(kind);
      break;
    case 'number':
    case 'money':
      families.push('number');
      break;
    case undefined:
      families.push('date', 'time', 'number');
      break;
    case 'integer':
    case 'string':
    case 'email':
    case 'enum':
    case 'phone':
    case 'boolean':
    case 'secret':
      break;
  }
  return families.flatMap((family) =>
    givenReadings(value, family).flatMap((given) => {
      const canonical = readGiven(value, given);
      if (canonical === null) return [];
      const from: Format = { kind: 'from', given };
      const canonicalKind = kind ?? family;
      return [[from], ...canonicalChains(canonical, canonicalKind).map((chain) => [from, ...chain])];
    }),
  );
}

function canonicalChains(value: string, kind?: ParamKind): Format[][] {
  switch (kind) {
    case 'date': return dateChains(value);
    case 'time': return timeChains(value);
    case 'number':
    case 'integer': return numberChains(value, 'number', ['']);
    case 'money': return numberChains(value, 'money', ['', ...CURRENCY_SYMBOLS]);
    case 'phone': return phoneChains(value);
    case 'string':
    case 'email':
    case 'enum': return textChains(value);
    case 'boolean':
    case 'secret': return [];
    case undefined:
      return [
        ...dateChains(value),
        ...timeChains(value),
        ...numberChains(value, 'number', ['']),
        ...numberChains(value, 'money', CURRENCY_SYMBOLS),
        ...(phoneShaped(value) ? phoneChains(value) : []),
        ...textChains(value),
      ];
  }
}

/** Chains read from the typed text itself, for layouts no fixed list can hold (phone punctuation). */
export function chainsFromText(value: string, text: string, kind?: ParamKind): Format[][] {
  return kind === 'phone' || (kind === undefined && phoneShaped(value)) ? phoneChainFromText(value, text) : [];
}

/**
 * An ISO date has phone-like digits and dashes, and so has a date given as 2020/08/29 or
 * 29.08.2020: without a declared kind, a value that reads as a date is a date only (its digits
 * typed as 2020-08-29 are that date, not a phone number).
 */
function phoneShaped(value: string): boolean {
  return isPhoneLike(value) && parseIsoDate(value) === null && givenReadings(value, 'date').length === 0;
}

/** The chain with zero padding removed (MM -> M, HH -> H), to spot readings that differ only there. */
export function unpadded(chain: readonly Format[]): Format[] {
  return chain.map((format): Format => {
    if (format.kind === 'date') return { kind: 'date', pattern: unpadDate(format.pattern) };
    if (format.kind === 'time') return { kind: 'time', pattern: unpadTime(format.pattern) };
    if (format.kind === 'from') return { kind: 'from', given: unpadded([format.given])[0] as typeof format.given };
    return format;
  });
}

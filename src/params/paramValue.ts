import { z } from 'zod';
import { fold, asBoolean } from './fold.js';
import type { ParamSpec } from './paramType.js';
import { isSecret, revealSecret } from './secret.js';
import { parseFormatSpec } from './formats/spec.js';
import { describeGiven, readGiven, type GivenFormat } from './formats/given.js';

/** A value checked against its type: the text it puts on the page, or what was wrong with it. */
export type CheckedValue = { ok: true; text: string; secret: boolean } | { ok: false; expected: string };

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$/;
const DECIMAL = /^-?\d+(\.\d+)?$/;
const MONEY = /^-?\d+(\.\d{1,2})?$/;
const INTEGER = /^-?\d+$/;
const PHONE = /^\+?[\d\s().\-/]+$/;
const email = z.email();

/**
 * Checks one given value against its declared type and renders it canonically (a date as
 * YYYY-MM-DD, a boolean as true/false, an enum as its option's own spelling).
 */
export function checkValue(value: unknown, spec: ParamSpec): CheckedValue {
  const fail = (expected: string): CheckedValue => ({ ok: false, expected });
  const ok = (text: string): CheckedValue => ({ ok: true, text, secret: false });
  // A value in the format the recording was given it in (10/11/2011, 8:04 PM, 1,234.50) is kept
  // as given: the recorded steps read it that way (see `from` in format.ts).
  const given = givenFormatOf(spec);
  if (given && typeof value === 'string' && !isSecret(value)) {
    const canonical = readGiven(value, given);
    // Read, it must still be what the type allows (an amount with at most 2 decimals).
    if (canonical !== null && checkCanonical(canonical, spec).ok) return ok(value.trim());
    // readGiven takes the canonical form too, where the reading cannot take it another way.
    return fail(`a ${spec.type} as ${describeGiven(given)}, the way the recording was given it, or ${canonicalForm(given)}`);
  }
  return checkCanonical(value, spec);
}

/** The reading a spec's `given` names, when it fits the spec's type. */
export function givenFormatOf(spec: ParamSpec): GivenFormat | undefined {
  if (spec.given === undefined) return undefined;
  let formats;
  try {
    // Read as a `from` reading, so it is checked as one (an amount may carry its currency).
    formats = parseFormatSpec(`from:${spec.given}`);
  } catch {
    return undefined;
  }
  const [from] = formats;
  if (formats.length !== 1 || from?.kind !== 'from') return undefined;
  const format = from.given;
  switch (format.kind) {
    case 'date': return spec.type === 'date' ? format : undefined;
    case 'time': return spec.type === 'time' ? format : undefined;
    case 'number': return spec.type === 'number' || spec.type === 'money' ? format : undefined;
  }
}

function canonicalForm(given: GivenFormat): string {
  switch (given.kind) {
    case 'date': return 'as YYYY-MM-DD';
    case 'time': return 'as a 24-hour HH:MM';
    case 'number': return 'as a plain number (1234.5)';
  }
}

function checkCanonical(value: unknown, spec: ParamSpec): CheckedValue {
  const fail = (expected: string): CheckedValue => ({ ok: false, expected });
  const ok = (text: string): CheckedValue => ({ ok: true, text, secret: false });
  if (isSecret(value)) {
    // A secret may fill any string-like type; it is never rendered in another format.
    return spec.type === 'secret' || spec.type === 'string' ? { ok: true, text: revealSecret(value), secret: true } : fail(`a ${spec.type}, not a secret`);
  }
  switch (spec.type) {
    case 'string':
      return typeof value === 'string' ? ok(value) : typeof value === 'number' && Number.isFinite(value) ? ok(String(value)) : fail('a string');
    case 'secret':
      return typeof value === 'string' ? { ok: true, text: value, secret: true } : fail("a string or secret('...')");
    case 'number':
      if (typeof value === 'number') return Number.isFinite(value) ? ok(String(value)) : fail('a finite number');
      return typeof value === 'string' && DECIMAL.test(value.trim()) ? ok(value.trim()) : fail('a number (e.g. 12.5)');
    case 'integer':
      if (typeof value === 'number') return Number.isInteger(value) ? ok(String(value)) : fail('an integer');
      return typeof value === 'string' && INTEGER.test(value.trim()) ? ok(value.trim()) : fail('an integer (e.g. 3)');
    case 'money':
      if (typeof value === 'number') return Number.isFinite(value) && MONEY.test(String(value)) ? ok(String(value)) : fail('an amount with at most 2 decimals (e.g. 1234.50)');
      return typeof value === 'string' && MONEY.test(value.trim()) ? ok(value.trim()) : fail('an amount with at most 2 decimals and no symbol or grouping (e.g. "1234.50")');
    case 'boolean': {
      if (typeof value === 'boolean') return ok(value ? 'true' : 'false');
      const read = typeof value === 'string' ? asBoolean(value) : undefined;
      if (read === undefined) return fail('a boolean (true/false, yes/no, on/off or 1/0)');
      // Inferred from a recording, a yes/no stays as given (Yes, on, 1): its steps were recorded
      // from that text, and render it the way each field shows it (see `bool` in format.ts).
      return ok(spec.inferred ? (value as string).trim() : read ? 'true' : 'false');
    }
    case 'date':
      return checkDate(value);
    case 'time':
      return typeof value === 'string' && TIME.test(value.trim()) ? ok(value.trim()) : fail('a 24-hour time as HH:MM or HH:MM:SS (e.g. "20:04")');
    case 'email':
      return typeof value === 'string' && email.safeParse(value.trim()).success ? ok(value.trim()) : fail('an email address (e.g. "ann@example.com")');
    case 'phone': {
      const digits = typeof value === 'string' ? value.replace(/\D/g, '').length : 0;
      return typeof value === 'string' && PHONE.test(value.trim()) && digits >= 7 && digits <= 15 ? ok(value.trim()) : fail('a phone number of 7 to 15 digits (e.g. "(555) 123-4567")');
    }
    case 'enum': {
      const options = spec.options ?? [];
      const wanted = typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
      const match = wanted === undefined ? undefined : (options.find((option) => option === wanted) ?? options.find((option) => fold(option) === fold(wanted)));
      return match === undefined ? fail(`one of ${options.map((option) => JSON.stringify(option)).join(', ')}`) : ok(match);
    }
  }
}

function checkDate(value: unknown): CheckedValue {
  const expected: CheckedValue = { ok: false, expected: 'a date as YYYY-MM-DD (e.g. "1990-04-01") or a Date' };
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return expected;
    // new Date('1990-04-01') is UTC midnight, new Date(1990, 3, 1) local midnight: both mean that day.
    const utcMidnight = value.getUTCHours() === 0 && value.getUTCMinutes() === 0 && value.getUTCSeconds() === 0;
    const [y, m, d] = utcMidnight ? [value.getUTCFullYear(), value.getUTCMonth() + 1, value.getUTCDate()] : [value.getFullYear(), value.getMonth() + 1, value.getDate()];
    return { ok: true, text: `${String(y).padStart(4, '0')}-${pad(m)}-${pad(d)}`, secret: false };
  }
  if (typeof value !== 'string') return expected;
  const match = DATE.exec(value.trim());
  if (!match) return expected;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return { ok: false, expected: 'a real calendar date as YYYY-MM-DD' };
  return { ok: true, text: value.trim(), secret: false };
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** How a type is named in messages: `a date (YYYY-MM-DD)`. */
export function describeSpec(spec: ParamSpec): string {
  switch (spec.type) {
    case 'enum':
      return `one of ${(spec.options ?? []).map((option) => JSON.stringify(option)).join(', ')}`;
    case 'date':
      return 'a date (YYYY-MM-DD)';
    case 'time':
      return 'a time (HH:MM)';
    case 'integer':
    case 'email':
      return `an ${spec.type}`;
    case 'string':
    case 'number':
    case 'boolean':
    case 'phone':
    case 'money':
    case 'secret':
      return `a ${spec.type}`;
  }
}

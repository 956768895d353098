import { inspect } from 'node:util';
import type { BoundParams } from './boundParams.js';

/** What a secret shows wherever it would otherwise be seen: observations, logs, results. */
export const SECRET_MASK = '********';

const values = new WeakMap<Secret, string>();

/**
 * A parameter value that must never be written anywhere: pass `secret('hunter2')` as a param.
 * The value is held outside the object, so printing, spreading or JSON-encoding it shows only
 * the mask.
 */
export class Secret {
  private constructor() {}

  /** @internal */
  static wrap(value: string): Secret {
    const wrapped = new Secret();
    values.set(wrapped, value);
    Object.freeze(wrapped);
    return wrapped;
  }

  toString(): string {
    return SECRET_MASK;
  }

  toJSON(): string {
    return SECRET_MASK;
  }

  [inspect.custom](): string {
    return `Secret(${SECRET_MASK})`;
  }
}

/** Marks a parameter value as secret: `params: { password: secret('hunter2') }`. */
export function secret(value: string): Secret {
  if (typeof value !== 'string') throw new TypeError(`secret(value): value must be a string, got ${value === null ? 'null' : typeof value}`);
  return Secret.wrap(value);
}

export function isSecret(value: unknown): value is Secret {
  return value instanceof Secret && values.has(value);
}

/** The plain value of a secret, for acting on the page only. */
export function revealSecret(value: Secret): string {
  return values.get(value)!;
}

/** The values of the `secret()` wrappers among raw, unvalidated params: known before any binding. */
export function secretsPassed(params: unknown): string[] {
  if (typeof params !== 'object' || params === null) return [];
  try {
    return Object.values(params).flatMap((value) => (isSecret(value) ? [revealSecret(value)] : []));
  } catch {
    return [];
  }
}

/** `text` with every secret value shown as the mask: for logs, errors, results and reasons. */
export function redactSecrets(text: string, params: BoundParams): string {
  return params.hasSecrets ? redactValues(text, params.secretValues()) : text;
}

/** `text` with each of `values` (longest first), plain or URL-encoded, shown as the mask. */
export function redactValues(text: string, values: readonly string[]): string {
  let out = text;
  for (const value of values) out = out.replace(secretPattern(value), SECRET_MASK);
  return out;
}

/**
 * Matches `value` wherever it stands, as typed or as a URL carries it: any of its characters
 * percent-encoded (either hex case: `hunter%3F2`, `%68unter?2`), a space also as `+` (a form)
 * and a run of spaces as any run (an accessible name collapses them and trims the ends).
 */
export function secretPattern(value: string): RegExp {
  const space = '(?:\\s|\\+|%(?:20|09|0[aAdD])|%[cC]2%[aA]0)';
  const core = value.trim() === '' ? value : value.trim();
  let source = '';
  let inSpace = false;
  for (const char of core) {
    if (/\s/.test(char)) {
      if (!inSpace) source += `${space}+`;
      inSpace = true;
      continue;
    }
    inSpace = false;
    const encoded = [...Buffer.from(char, 'utf8')].map((byte) => `%${hexPattern(byte)}`).join('');
    // The encoded form first: a `%` value must take its `%25` whole.
    source += `(?:${encoded}|${char.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')})`;
  }
  // Spaces around the value are taken with it where they stand, and not required.
  if (core !== value) source = `${/^\s/.test(value) ? `${space}*` : ''}${source}${/\s$/.test(value) ? `${space}*` : ''}`;
  return new RegExp(source, 'g');
}

function hexPattern(byte: number): string {
  return [...byte.toString(16).toUpperCase().padStart(2, '0')].map((digit) => (/[A-F]/.test(digit) ? `[${digit}${digit.toLowerCase()}]` : digit)).join('');
}

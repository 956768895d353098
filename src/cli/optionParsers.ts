import { InvalidArgumentError } from 'commander';

/** Commander's parsers for option values: each says what it expected and what it got. */

/** An http(s) URL. */
export function httpUrl(value: string): string {
  let protocol: string | undefined;
  try {
    protocol = new URL(value).protocol;
  } catch {
    protocol = undefined;
  }
  if (protocol !== 'http:' && protocol !== 'https:') throw new InvalidArgumentError(`expected an http(s) URL such as http://localhost:3000, got ${JSON.stringify(value)}`);
  return value;
}

/** A repeatable option's values, in order. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

export function wholeNumber(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new InvalidArgumentError(`expected a whole number from 0 up, got ${JSON.stringify(value)}`);
  return parsed;
}

export function portNumber(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1 || parsed > 65535) throw new InvalidArgumentError(`expected a port from 1 to 65535, got ${JSON.stringify(value)}`);
  return parsed;
}

export function positiveInteger(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) throw new InvalidArgumentError(`expected a whole number from 1 up, got ${JSON.stringify(value)}`);
  return parsed;
}

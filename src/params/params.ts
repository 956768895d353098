import { RoteError } from '../errors/roteError.js';
import { isSecret, markSecretNames, revealSecret, type Secret } from './secret.js';

/** What a caller may pass as a parameter value. */
export type ParamValue = string | number | boolean | Secret;
export type ParamsInput = Record<string, ParamValue>;
/**
 * Parameters bound for a run: every value rendered as the text it puts on the page. Secret values
 * are plain here (they are typed); which names are secret is known by `secretNames(params)`.
 */
export type BoundParams = Readonly<Record<string, string>>;

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Validates `params` at the API boundary, before anything touches the page.
 * `where` names the call in the message, e.g. `rote.run("Register patient")`.
 */
export function bindParams(input: unknown, where: string): BoundParams {
  if (input === undefined || input === null) return {};
  if (typeof input !== 'object' || Array.isArray(input)) {
    throw new RoteError('invalid-argument', `${where}: params must be an object of name -> string | number | boolean, got ${describe(input)}`);
  }
  const bound: Record<string, string> = {};
  const secrets = new Set<string>();
  for (const [name, value] of Object.entries(input as Record<string, unknown>)) {
    if (!NAME.test(name)) {
      throw new RoteError('invalid-argument', `${where}: parameter name ${JSON.stringify(name)} is not valid; expected letters, digits and _ (not starting with a digit)`);
    }
    if (isSecret(value)) {
      secrets.add(name);
      bound[name] = revealSecret(value);
    } else {
      bound[name] = renderValue(name, value, where);
    }
  }
  markSecretNames(bound, secrets);
  return bound;
}

function renderValue(name: string, value: unknown, where: string): string {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
      if (!Number.isFinite(value)) throw new RoteError('invalid-argument', `${where}: params.${name} must be a finite number, got ${value}`);
      return String(value);
    case 'boolean':
      return value ? 'true' : 'false';
    default:
      throw new RoteError('invalid-argument', `${where}: params.${name} must be a string, number or boolean, got ${describe(value)}`);
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value instanceof Date) return 'a Date (pass it as a string, e.g. "1990-04-01")';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return JSON.stringify(value);
  return `${typeof value} ${String(value)}`;
}

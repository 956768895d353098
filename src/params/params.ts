import { RoteError } from '../errors/roteError.js';
import { listProblems } from './paramSchema.js';
import type { ParamKind, ParamSchema } from './paramType.js';
import { checkValue, describeSpec } from './paramValue.js';
import { isSecret, revealSecret, type Secret } from './secret.js';
import { BoundParams } from './boundParams.js';
import { isParamName } from './paramName.js';

/** What a caller may pass as a parameter value (a Date for a date parameter). */
export type ParamValue = string | number | boolean | Date | Secret;
export type ParamsInput = Record<string, ParamValue>;
export { BoundParams };

/**
 * Validates `params` at the API boundary, before anything touches the page, against the
 * schema (declared by the caller or stored with the trajectory). Every problem is listed in one
 * error. `where` names the call in the message, e.g. `rote.run("Register patient")`. `required`
 * adds names that must be given, with why (the recorded trajectory uses them).
 */
export function bindParams(input: unknown, where: string, schema: ParamSchema = {}, required: ReadonlyMap<string, string> = new Map()): BoundParams {
  if (input !== undefined && input !== null && (typeof input !== 'object' || Array.isArray(input))) {
    throw new RoteError('invalid-argument', `${where}: params must be an object of name -> string | number | boolean, got ${describe(input)}`);
  }
  const given = (input ?? {}) as Record<string, unknown>;
  // No prototype: a parameter named __proto__ is an own entry like any other.
  const bound: Record<string, string> = Object.create(null);
  const secrets = new Set<string>();
  const kinds: Record<string, ParamKind> = {};
  const problems: string[] = [];
  for (const [name, value] of Object.entries(given)) {
    if (!isParamName(name)) {
      problems.push(`parameter name ${JSON.stringify(name)} is not valid; expected letters, digits and _ (not starting with a digit)`);
      continue;
    }
    // Own entries only: a parameter named "constructor" is not Object.prototype's.
    const spec = Object.hasOwn(schema, name) ? schema[name] : undefined;
    if (!spec) {
      if (isSecret(value)) {
        secrets.add(name);
        bound[name] = revealSecret(value);
        continue;
      }
      const text = renderValue(value);
      if (typeof text === 'string') bound[name] = text;
      else problems.push(`params.${name} must be ${text.expected}, got ${describe(value)}`);
      continue;
    }
    const checked = checkValue(value, spec);
    if (!checked.ok) {
      problems.push(`params.${name} must be ${checked.expected}${spec.inferred && spec.given === undefined ? ' (the recording typed it as one)' : ''}, got ${isSecret(value) ? 'a secret' : describe(value)}`);
      continue;
    }
    bound[name] = checked.text;
    if (checked.secret) secrets.add(name);
    kinds[name] = spec.type;
  }
  for (const [name, spec] of Object.entries(schema)) {
    if (name in given) continue;
    if (spec.default !== undefined) {
      const checked = checkValue(spec.default, spec);
      if (checked.ok) {
        bound[name] = checked.text;
        if (checked.secret) secrets.add(name);
        kinds[name] = spec.type;
      } else problems.push(`schema.${name}: its default ${JSON.stringify(spec.default)} is not ${checked.expected}`);
    } else if (!spec.optional) {
      problems.push(`params.${name} is required (${describeSpec(spec)}), but was not given`);
    }
  }
  for (const [name, why] of required) if (!(name in bound) && !(name in given)) problems.push(`params.${name} is required: ${why}`);
  if (problems.length > 0) throw new RoteError('invalid-argument', listProblems(where, 'params', problems));
  return BoundParams.of(bound, { secrets, kinds });
}

/** An undeclared parameter: any string, finite number or boolean, as text. */
function renderValue(value: unknown): string | { expected: string } {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
      return Number.isFinite(value) ? String(value) : { expected: 'a finite number' };
    case 'boolean':
      return value ? 'true' : 'false';
    default:
      return { expected: value instanceof Date ? 'a string, number or boolean (declare it with param.date() to pass a Date)' : 'a string, number or boolean' };
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value instanceof Date) return `a Date (${Number.isNaN(value.getTime()) ? 'invalid' : value.toISOString()})`;
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return `${typeof value} ${String(value)}`;
}

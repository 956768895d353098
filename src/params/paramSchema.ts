import { problemList } from '../errors/problemList.js';
import { z } from 'zod';
import { RoteError } from '../errors/roteError.js';
import { PARAM_KINDS, ParamType, type ParamSchema, type ParamSpec } from './paramType.js';
import { givenFormatOf } from './paramValue.js';
import { isParamName } from './paramName.js';

/** One parameter's stored type (`ParamSpec`); recordings validate their `params` with it. */
export const specSchema = z
  .object({
    type: z.enum(PARAM_KINDS),
    options: z.array(z.string().min(1)).min(1).optional(),
    optional: z.boolean().optional(),
    default: z.union([z.string(), z.number(), z.boolean()]).optional(),
    inferred: z.boolean().optional(),
    given: z.string().min(1).optional(),
  })
  .strict();


/** The rules a spec object must keep beyond its shape: an enum has options, nothing else does. */
export function specProblem(spec: ParamSpec): string | undefined {
  if (spec.type === 'enum' && !spec.options) return "an enum needs its options, e.g. param.enum(['CA', 'NY'])";
  if (spec.type !== 'enum' && spec.options) return `options are only for enums, got options on a ${spec.type}`;
  if (spec.given !== undefined && givenFormatOf(spec) === undefined) return `given ${JSON.stringify(spec.given)} is not how a ${spec.type} can be given; expected date:<pattern> for a date, time:<pattern> for a time, number:<pattern> for a number or money`;
  return undefined;
}

/** A stored schema read back; an entry that does not parse (a newer or damaged row) is dropped, never guessed. */
export function schemaFromStored(stored: unknown): ParamSchema {
  if (typeof stored !== 'object' || stored === null) return {};
  const schema: ParamSchema = {};
  for (const [name, entry] of Object.entries(stored)) {
    const parsed = specSchema.safeParse(entry);
    if (parsed.success && isParamName(name) && !specProblem(parsed.data as ParamSpec)) schema[name] = parsed.data as ParamSpec;
  }
  return schema;
}

/**
 * Validates the `schema` option: every entry a builder (`param.date()`), a type name (`'date'`)
 * or a spec object. Every problem is listed in one error, before anything happens.
 */
export function normalizeSchema(input: unknown, where: string): ParamSchema {
  if (input === undefined || input === null) return {};
  if (typeof input !== 'object' || Array.isArray(input)) {
    throw new RoteError('invalid-argument', `${where}: options.schema must be an object of name -> param type (e.g. { dob: param.date() }), got ${Array.isArray(input) ? 'an array' : JSON.stringify(input)}`);
  }
  const schema: ParamSchema = {};
  const problems: string[] = [];
  for (const [name, entry] of Object.entries(input as Record<string, unknown>)) {
    if (!isParamName(name)) {
      problems.push(`schema.${name}: not a valid parameter name; expected letters, digits and _ (not starting with a digit)`);
      continue;
    }
    const spec = entry instanceof ParamType ? entry.spec : typeof entry === 'string' ? { type: entry } : entry;
    const parsed = specSchema.safeParse(spec);
    if (!parsed.success) {
      problems.push(`schema.${name}: expected a param type (${PARAM_KINDS.map((kind) => `param.${kind}()`).join(', ')}) or one of ${PARAM_KINDS.map((kind) => JSON.stringify(kind)).join(', ')}, got ${JSON.stringify(entry) ?? String(entry)}`);
      continue;
    }
    const valid = parsed.data as ParamSpec;
    const problem = specProblem(valid);
    if (problem) problems.push(`schema.${name}: ${problem}`);
    else schema[name] = valid;
  }
  if (problems.length > 0) throw new RoteError('invalid-argument', listProblems(where, 'options.schema', problems));
  return schema;
}

/**
 * The schema a run validates with: what the stored trajectory learned (declared before, or
 * inferred from how values were typed), overridden by what the caller declares now.
 */
export function mergeSchemas(stored: ParamSchema, declared: ParamSchema): ParamSchema {
  return { ...stored, ...declared };
}

export function listProblems(where: string, what: string, problems: readonly string[]): string {
  return problemList(where, problems, what);
}

import { z } from 'zod';
import type { Agent } from '../agent/agent.js';
import { RoteError } from '../errors/roteError.js';
import type { ParamsInput } from '../params/params.js';
import type { ParamSchemaInput } from '../params/paramType.js';
import type { RunMode } from './runResult.js';

/** A run's deadline when the caller gives none. */
export const DEFAULT_RUN_TIMEOUT_MS = 300_000;

const origin = z.string().refine((value) => {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && (url.pathname === '/' || url.pathname === '') && !url.search && !url.hash;
  } catch {
    return false;
  }
}, 'must be an http(s) origin such as https://intake.example (no path)');

/**
 * The options of rote.run, said once: the validated value the run reads (ValidRunOptions,
 * defaults filled in) is derived from this schema, and the type callers write (RunOptions) is
 * checked equal to its input below (written out so each option keeps its documentation in the
 * package's declarations, which a type derived from a zod shape loses).
 */
const runOptionsSchema = z.object({
  task: z.string().trim().min(1, 'must be a non-empty string'),
  params: z.custom<ParamsInput>(() => true).optional(),
  schema: z.custom<ParamSchemaInput>(() => true).optional(),
  tags: z.array(z.string().min(1)).default([]),
  agent: z.custom<Agent>((value) => typeof value === 'object' && value !== null && typeof (value as Agent).next === 'function', 'must be an object with a next(observation) method').optional(),
  mode: z.enum(['auto', 'replay-only', 'record']).default('auto'),
  timeout: z.number().int().positive().default(DEFAULT_RUN_TIMEOUT_MS),
  checkTimeout: z.number().int().nonnegative().default(3_000),
  maxAgentCalls: z.number().int().positive().default(50),
  maxSteps: z.number().int().positive().default(200),
  signal: z.instanceof(AbortSignal).optional(),
  stop: z.instanceof(AbortSignal).optional(),
  allowedOrigins: z
    .array(origin)
    .min(1, 'must list at least one origin')
    .transform((origins) => origins.map((given) => new URL(given).origin))
    .optional(),
});

/** What rote.run takes. */
export type RunOptions = {
  /** What to do, in words; may be a template such as "Log in as {{username}}". */
  task: string;
  /** The values of this run (checked by the parameters' types when bound). */
  params?: ParamsInput | undefined;
  /**
   * Parameter types, validated before any action: `{ dob: param.date(), state: param.enum(['CA', 'NY']) }`.
   * Stored with the trajectory, so later runs are checked the same way without repeating it.
   */
  schema?: ParamSchemaInput | undefined;
  /** Part of the cache key: the same words under other tags are another task. */
  tags?: string[] | undefined;
  /** Asked for the next actions on a miss or a divergence. Without one, a divergence ends the run. */
  agent?: Agent | undefined;
  /** 'auto' (default): replay what matches, agent for the rest. 'replay-only': never the agent. 'record': always the agent. */
  mode?: RunMode | undefined;
  /** The whole run's deadline, in ms. Default 300000 (5 minutes). */
  timeout?: number | undefined;
  /** How long a cached step's checks wait for its target before the step diverges, in ms. Default 3000. */
  checkTimeout?: number | undefined;
  /** At most this many agent calls in the run. Default 50. */
  maxAgentCalls?: number | undefined;
  /** At most this many steps in the run. Default 200. */
  maxSteps?: number | undefined;
  /** Aborts the run at once, whatever it is doing: status 'interrupted'. */
  signal?: AbortSignal | undefined;
  /**
   * Ends the run before its next step, once the step in progress is done (a clean stop, as a
   * daemon makes on SIGTERM): status 'interrupted'.
   */
  stop?: AbortSignal | undefined;
  /**
   * The origins the run may be on ('https://intake.example'): a step that ends elsewhere (an agent
   * that navigates away, a redirect) fails the run, and an agent's goto elsewhere is not done.
   * Secrets are typed only on the start page's origin or one of these, whatever this says.
   */
  allowedOrigins?: string[] | undefined;
};

/** True only when A and B are the same type. */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** Fails the type check when RunOptions and the schema's input differ: add an option in both. */
export type RunOptionsMatchTheSchema = Same<RunOptions, z.input<typeof runOptionsSchema>> extends true ? true : never;
const optionsMatch: RunOptionsMatchTheSchema = true;
void optionsMatch;

/** The options as the run reads them: checked, defaults filled in, origins normalized. */
export type ValidRunOptions = z.output<typeof runOptionsSchema>;

/** Validates the options of rote.run before anything happens; the message names the option, the value and what was expected. */
export function validateRunOptions(input: unknown): ValidRunOptions {
  const where = typeof input === 'object' && input !== null && typeof (input as RunOptions).task === 'string' ? `rote.run(${JSON.stringify((input as RunOptions).task)})` : 'rote.run';
  if (typeof input !== 'object' || input === null) throw new RoteError('invalid-argument', `${where}: expected an options object { task, params?, tags?, agent?, mode? }, got ${String(input)}`);
  const parsed = runOptionsSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.map(String).join('.');
    const value = issue.path.reduce<unknown>((at, key) => (at as Record<PropertyKey, unknown> | undefined)?.[key as PropertyKey], input);
    throw new RoteError('invalid-argument', `${where}: options.${path} ${issue.message.replace(/^Invalid input: /, '')}, got ${JSON.stringify(value) ?? String(value)}`);
  }
  return parsed.data;
}

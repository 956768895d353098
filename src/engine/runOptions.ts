import { z } from 'zod';
import type { Agent } from '../agent/agent.js';
import { RoteError } from '../errors/roteError.js';
import type { ParamsInput } from '../params/params.js';
import type { ParamSchemaInput } from '../params/paramType.js';
import type { RunMode } from './runResult.js';

export type RunOptions = {
  /** What to do, in words; may be a template such as "Log in as {{username}}". */
  task: string;
  params?: ParamsInput;
  /**
   * Parameter types, validated before any action: `{ dob: param.date(), state: param.enum(['CA', 'NY']) }`.
   * Stored with the trajectory, so later runs are checked the same way without repeating it.
   */
  schema?: ParamSchemaInput;
  /** Part of the cache key: the same words under other tags are another task. */
  tags?: string[];
  /** Asked for the next actions on a miss or a divergence. Without one, a divergence ends the run. */
  agent?: Agent;
  /** 'auto' (default): replay what matches, agent for the rest. 'replay-only': never the agent. 'record': always the agent. */
  mode?: RunMode;
  /** The whole run's deadline. Default 300000 (5 minutes). */
  timeout?: number;
  /** How long a cached step's checks wait for its target before the step diverges. Default 3000. */
  checkTimeout?: number;
  /** At most this many agent calls in the run. Default 50. */
  maxAgentCalls?: number;
  /** At most this many steps in the run. Default 200. */
  maxSteps?: number;
  /** Aborts the run at once, whatever it is doing: status 'interrupted'. */
  signal?: AbortSignal;
  /**
   * Ends the run before its next step, once the step in progress is done (a clean stop, as a
   * daemon makes on SIGTERM): status 'interrupted'.
   */
  stop?: AbortSignal;
  /**
   * The origins the run may be on ('https://intake.example'): a step that ends elsewhere (an agent
   * that navigates away, a redirect) fails the run, and an agent's goto elsewhere is not done.
   * Secrets are typed only on the start page's origin or one of these, whatever this says.
   */
  allowedOrigins?: string[];
};

const optionsSchema = z.object({
  task: z.string().trim().min(1, 'must be a non-empty string'),
  params: z.unknown().optional(),
  schema: z.unknown().optional(),
  tags: z.array(z.string().min(1)).optional(),
  agent: z.custom<Agent>((value) => typeof value === 'object' && value !== null && typeof (value as Agent).next === 'function', 'must be an object with a next(observation) method').optional(),
  mode: z.enum(['auto', 'replay-only', 'record']).optional(),
  timeout: z.number().int().positive().optional(),
  checkTimeout: z.number().int().nonnegative().optional(),
  maxAgentCalls: z.number().int().positive().optional(),
  maxSteps: z.number().int().positive().optional(),
  signal: z.instanceof(AbortSignal).optional(),
  stop: z.instanceof(AbortSignal).optional(),
  allowedOrigins: z
    .array(
      z.string().refine((value) => {
        try {
          const url = new URL(value);
          return (url.protocol === 'http:' || url.protocol === 'https:') && (url.pathname === '/' || url.pathname === '') && !url.search && !url.hash;
        } catch {
          return false;
        }
      }, 'must be an http(s) origin such as https://intake.example (no path)'),
    )
    .min(1, 'must list at least one origin')
    .optional(),
});

/** A run's deadline when the caller gives none. */
export const DEFAULT_RUN_TIMEOUT_MS = 300_000;

export type ValidRunOptions = Required<Pick<RunOptions, 'task' | 'tags' | 'mode' | 'timeout' | 'checkTimeout' | 'maxAgentCalls' | 'maxSteps'>> &
  Pick<RunOptions, 'agent' | 'signal' | 'stop' | 'allowedOrigins'> & { params: unknown; schema: unknown };

/** Validates the options of rote.run before anything happens; the message names the option, the value and what was expected. */
export function validateRunOptions(input: unknown): ValidRunOptions {
  const where = typeof input === 'object' && input !== null && typeof (input as RunOptions).task === 'string' ? `rote.run(${JSON.stringify((input as RunOptions).task)})` : 'rote.run';
  if (typeof input !== 'object' || input === null) throw new RoteError('invalid-argument', `${where}: expected an options object { task, params?, tags?, agent?, mode? }, got ${String(input)}`);
  const parsed = optionsSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.map(String).join('.');
    const value = issue.path.reduce<unknown>((at, key) => (at as Record<PropertyKey, unknown> | undefined)?.[key as PropertyKey], input);
    throw new RoteError('invalid-argument', `${where}: options.${path} ${issue.message.replace(/^Invalid input: /, '')}, got ${JSON.stringify(value) ?? String(value)}`);
  }
  const options = parsed.data;
  return {
    task: options.task,
    params: options.params,
    schema: options.schema,
    tags: options.tags ?? [],
    mode: options.mode ?? 'auto',
    timeout: options.timeout ?? DEFAULT_RUN_TIMEOUT_MS,
    checkTimeout: options.checkTimeout ?? 3_000,
    maxAgentCalls: options.maxAgentCalls ?? 50,
    maxSteps: options.maxSteps ?? 200,
    ...(options.agent ? { agent: options.agent } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.stop ? { stop: options.stop } : {}),
    ...(options.allowedOrigins ? { allowedOrigins: options.allowedOrigins.map((origin) => new URL(origin).origin) } : {}),
  };
}

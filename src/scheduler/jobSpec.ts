import { z } from 'zod';
import { AGENT_NAMES } from './agentCatalog.js';

/** At most this many browser contexts at once: each costs a renderer, and this machine has 2 cores. */
export const MAX_CONCURRENCY = 16;

/**
 * What to run, unattended: one task for one set of values or for every row of a file. The same
 * shape `rote run` builds from its arguments and a schedule stores (as JSON; secrets only as the
 * names of environment variables, never their values).
 */
export const jobSpecSchema = z
  .object({
    /** A task key, a unique key prefix, the exact template, or a recording folder. */
    task: z.string().trim().min(1, 'must name a task (key, key prefix or template) or a recording folder'),
    /** The page to start on; default the task's start URL when it has no varying parts. */
    url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
    /** Values every row gets. */
    params: z.record(z.string(), z.string()).default({}),
    /** A JSON file of name -> value that every row gets. */
    paramsFile: z.string().min(1).optional(),
    /** A CSV, JSON or JSON Lines file: one run per row, columns are parameters. */
    rowsFile: z.string().min(1).optional(),
    /** Secret parameters: name -> the environment variable holding the value (read at run time). */
    secrets: z.record(z.string(), z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must name an environment variable')).default({}),
    agent: z.enum(AGENT_NAMES).default('none'),
    model: z.string().min(1).optional(),
    mode: z.enum(['auto', 'replay-only']).default('auto'),
    concurrency: z.number().int().min(1).max(MAX_CONCURRENCY).default(1),
    /** Attempts per row for failures that may pass (1: no retry), the first wait doubling each time. */
    retry: z.object({ attempts: z.number().int().min(1).max(10), backoffMs: z.number().int().min(0).max(3_600_000) }).default({ attempts: 1, backoffMs: 2_000 }),
    /** Each run's deadline, ms. */
    timeout: z.number().int().positive().optional(),
    headed: z.boolean().default(false),
    /** A folder to write an HTML report to when the job ends: of its runs (`rote run`), or of the schedule's (a schedule). */
    report: z.string().min(1).optional(),
  })
  .strict();

export type JobSpec = z.infer<typeof jobSpecSchema>;
export type JobSpecInput = z.input<typeof jobSpecSchema>;

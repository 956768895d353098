import { z } from 'zod';
import { AGENT_NAMES } from '../agentCatalog.js';
import type { PreparedJob } from '../prepareJob.js';
import { DEFAULT_RUN_TIMEOUT_MS } from '../../engine/runOptions.js';

/** The queue rows of every batch go to: workers anywhere take them. */
export const ROW_QUEUE = 'rote-rows';

/**
 * One row of a batch as a queue job, what a worker on any machine needs to run it: the task by
 * its key (the store is shared), the start URL, the row's plain values, and secrets only as the
 * names of the environment variables that hold them (read by the worker; a value never enters the
 * queue, whose rows are on the server's disk).
 */
export const rowJobSchema = z
  .object({
    v: z.literal(1),
    /** The batch this row belongs to (a `rote run` or a schedule's slot). */
    batch: z.string().min(1),
    /** The row's number in its file (from 1). */
    row: z.number().int().positive(),
    taskKey: z.string().min(1),
    url: z.string().min(1),
    /** The row's own values and the shared ones; never a secret (rowsForTask refuses one given as a value). */
    values: z.record(z.string(), z.string()),
    /** Secret parameter -> the environment variable holding it, on the worker. */
    secrets: z.record(z.string(), z.string()),
    mode: z.enum(['auto', 'replay-only']),
    agent: z.enum(AGENT_NAMES),
    model: z.string().min(1).optional(),
    /** Each run's deadline, ms. */
    timeout: z.number().int().positive(),
    /** Runs per row for failures that may pass (a crash of the worker does not count). */
    attempts: z.number().int().min(1).max(10),
    backoffMs: z.number().int().min(0),
    headed: z.boolean(),
  })
  .strict();

export type RowJob = z.infer<typeof rowJobSchema>;

/** The jobs of a prepared batch, one per row, in row order. */
export function rowJobsOf(job: PreparedJob, batch: string): RowJob[] {
  const { spec } = job;
  return job.rows.map((row) => ({
    v: 1 as const,
    batch,
    row: row.index,
    taskKey: job.task.id,
    url: job.url,
    values: plainValues(row.params, spec.secrets),
    secrets: { ...spec.secrets },
    mode: spec.mode,
    agent: spec.agent,
    ...(spec.model ? { model: spec.model } : {}),
    timeout: spec.timeout ?? DEFAULT_RUN_TIMEOUT_MS,
    attempts: spec.retry.attempts,
    backoffMs: spec.retry.backoffMs,
    headed: spec.headed,
  }));
}

/** A row's plain values as rote.run takes them: everything but the secrets, which the worker reads itself. */
function plainValues(params: Readonly<Record<string, unknown>>, secrets: Readonly<Record<string, string>>): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(params)) {
    if (name in secrets) continue;
    if (typeof value !== 'string') throw new Error(`row parameter ${name} is not a plain value`);
    values[name] = value;
  }
  return values;
}

import type { Rote } from '../rote.js';
import { mayPass, runBatch, succeeded, type RowOutcome } from './batch.js';
import type { BrowserSupply } from './browserSupply.js';
import { sleepUnlessStopped } from './sleep.js';
import type { PreparedJob } from './prepareJob.js';
import type { JobRow } from './rowParams.js';

/** How a job ended: each row's last attempt, every attempt, and the time it took. */
export type JobResult = {
  /** Per row, the outcome of its last attempt, by row. Rows not started before a stop are missing. */
  outcomes: RowOutcome[];
  /** Every attempt, in the order they ended. */
  attempts: RowOutcome[];
  durationMs: number;
  /** The job was stopped before every row had its last attempt. */
  stopped: boolean;
};

export type JobHooks = {
  stop?: AbortSignal;
  onRowStart?: (row: JobRow, attempt: number) => void;
  onRowEnd?: (outcome: RowOutcome) => void;
  /** Waits before a retry; tests make it instant. */
  sleep?: (ms: number, stop?: AbortSignal) => Promise<void>;
};

/**
 * Runs a prepared job: every row, `concurrency` at once; then, for rows whose failure may pass (a
 * browser crash, a timeout, a model error; see mayPass), again after a wait that doubles each time,
 * up to the spec's attempts. A divergence or a refused value is never retried. A stop ends it
 * cleanly: no new row or retry starts, runs under way end before their next step.
 */
export async function runJob(job: PreparedJob, rote: Rote, browsers: BrowserSupply, hooks: JobHooks = {}): Promise<JobResult> {
  const started = Date.now();
  const sleep = hooks.sleep ?? sleepUnlessStopped;
  const { spec } = job;
  const final = new Map<number, RowOutcome>();
  const attempts: RowOutcome[] = [];
  let pending = job.rows;
  for (let attempt = 1; pending.length > 0 && !hooks.stop?.aborted; attempt++) {
    if (attempt > 1) await sleep(spec.retry.backoffMs * 2 ** (attempt - 2), hooks.stop);
    if (hooks.stop?.aborted) break;
    const outcomes = await runBatch(
      {
        rote,
        browsers,
        task: job.task.taskTemplate,
        tags: job.task.tags,
        url: job.url,
        rows: pending,
        concurrency: spec.concurrency,
        mode: spec.mode,
        ...(job.agent.create ? { agent: job.agent.create } : {}),
        ...(spec.timeout ? { timeout: spec.timeout } : {}),
        ...(hooks.stop ? { stop: hooks.stop } : {}),
        onRowStart: (row) => hooks.onRowStart?.(row, attempt),
        onRowEnd: (outcome) => {
          attempts.push(outcome);
          hooks.onRowEnd?.(outcome);
        },
      },
      attempt,
    );
    for (const outcome of outcomes) final.set(outcome.row, outcome);
    if (attempt >= spec.retry.attempts) break;
    const again = new Set(outcomes.filter((outcome) => !succeeded(outcome) && mayPass(outcome)).map((outcome) => outcome.row));
    pending = pending.filter((row) => again.has(row.index));
  }
  const outcomes = [...final.values()].sort((a, b) => a.row - b.row);
  return { outcomes, attempts, durationMs: Date.now() - started, stopped: outcomes.length < job.rows.length || outcomes.some((outcome) => outcome.status === 'interrupted') };
}

import { randomUUID } from 'node:crypto';
import type { Store } from '../../store/store.js';
import type { RowOutcome } from '../batch.js';
import type { PreparedJob } from '../prepareJob.js';
import type { JobHooks, JobResult } from '../runJob.js';
import { sleepUnlessStopped } from '../sleep.js';
import type { JobQueue, JobState } from './jobQueue.js';
import { ROW_QUEUE, rowJobsOf } from './rowJob.js';

/** How often the batch's jobs are looked at while workers run them. */
const POLL_MS = 500;

export type QueuedJobHooks = Pick<JobHooks, 'stop' | 'onRowEnd'> & {
  /** Once the rows are queued: the batch id and its jobs' ids. */
  onQueued?: (batch: string, jobIds: readonly string[]) => void;
  /** Once, when no worker has taken a row for a while: there may be none running. */
  onNoWorker?: (waitedMs: number) => void;
};

/** How long queued rows may wait untaken before the caller hears that no worker seems to run. */
const NO_WORKER_MS = 30_000;

/**
 * Runs a prepared job through the queue: one job per row, taken by `rote worker` processes on any
 * machine; resolves when every row has its last outcome, as the in-process runJob does. A stop
 * cancels the rows no worker has taken yet (reported not started, or interrupted when an earlier
 * attempt ran); rows under way end on their workers and are waited for.
 */
export async function runJobOnQueue(job: PreparedJob, queue: JobQueue, store: Store, hooks: QueuedJobHooks = {}): Promise<JobResult> {
  const started = Date.now();
  const batch = randomUUID();
  const ids = await queue.enqueueRows(rowJobsOf(job, batch));
  hooks.onQueued?.(batch, ids);
  const rowOf = new Map(ids.map((id, index) => [id, job.rows[index]!.index]));
  const final = new Map<number, FinalOutcome>();
  let pending = [...ids];
  const cancelled = new Set<string>();
  let warned = false;
  while (pending.length > 0) {
    // Once stopped, on every look: a row a stopping worker gives back later is cancelled too.
    if (hooks.stop?.aborted) for (const id of await queue.cancelWaiting(ROW_QUEUE, pending)) cancelled.add(id);
    const states = await queue.states(ROW_QUEUE, pending);
    for (const id of pending) {
      const state = states.get(id);
      const outcome = state ? outcomeOfState(rowOf.get(id)!, state) : undefined;
      if (!outcome) continue;
      if (state?.state === 'failed' || state?.state === 'cancelled') {
        // No worker will come back to this row: a run its last worker left 'running' is closed out here.
        await store.markRunsOfJobInterrupted(id, state.state === 'failed' ? 'no worker finished the row: its job ran out of retries' : 'the batch was stopped before this row ran again');
      }
      final.set(outcome.row, outcome.status === 'not-started' && (await store.findRuns({ jobIds: [id], limit: 1 })).length > 0 ? { ...outcome, status: 'interrupted' } : outcome);
      const ended = final.get(outcome.row)!;
      if (ended.status !== 'not-started') hooks.onRowEnd?.(ended);
    }
    pending = pending.filter((id) => !final.has(rowOf.get(id)!));
    if (!warned && Date.now() - started > NO_WORKER_MS && final.size === 0 && pending.every((id) => states.get(id)?.state === 'created')) {
      warned = true;
      hooks.onNoWorker?.(Date.now() - started);
    }
    if (pending.length > 0) await sleepUnlessStopped(POLL_MS, hooks.stop?.aborted ? undefined : hooks.stop);
  }
  const outcomes = [...final.values()].filter((outcome): outcome is RowOutcome => outcome.status !== 'not-started').sort((a, b) => a.row - b.row);
  // Every attempt is a run of the row's job, a worker's crash and the retries included: the report shows them all.
  const runs = (await store.findRuns({ jobIds: ids })).reverse();
  const seen = new Map<number, number>();
  const attempts = runs.map((run): RowOutcome => {
    const row = rowOf.get(run.jobId ?? '') ?? 0;
    seen.set(row, (seen.get(row) ?? 0) + 1);
    return { row, attempt: seen.get(row)!, status: run.status === 'running' ? 'interrupted' : run.status, runId: run.id, cachedSteps: run.cachedSteps, relocatedSteps: run.relocatedSteps, agentSteps: run.agentSteps, agentCalls: run.agentCalls, durationMs: run.durationMs ?? 0 };
  });
  return { outcomes, attempts, durationMs: Date.now() - started, stopped: hooks.stop?.aborted ?? false };
}

type FinalOutcome = RowOutcome | (Omit<RowOutcome, 'status'> & { status: 'not-started' });

/** A job's last outcome, or undefined while it may still run. */
function outcomeOfState(row: number, state: JobState): FinalOutcome | undefined {
  switch (state.state) {
    case 'created':
    case 'retry':
    case 'active':
      return undefined;
    case 'completed':
      return isOutcome(state.output) ? { ...state.output, row } : { ...emptyOutcome(row), status: 'failed', error: 'the worker completed the job without an outcome' };
    case 'failed': {
      // Out of retries: the handler's own outcome when it gave one, else its worker died each time (the job expired).
      const given = (state.output as { outcome?: unknown } | null)?.outcome;
      if (isOutcome(given)) return { ...given, row };
      return { ...emptyOutcome(row), status: 'failed', errorCode: 'internal', error: `no worker finished the row: the job ran ${state.retryCount + 1} times and each time its worker stopped before the run ended` };
    }
    case 'cancelled':
      return { ...emptyOutcome(row), status: 'not-started' };
  }
}

function isOutcome(value: unknown): value is RowOutcome {
  return typeof value === 'object' && value !== null && typeof (value as RowOutcome).status === 'string' && typeof (value as RowOutcome).row === 'number';
}

function emptyOutcome(row: number): RowOutcome {
  return { row, attempt: 1, status: 'failed', runId: undefined, cachedSteps: 0, relocatedSteps: 0, agentSteps: 0, agentCalls: 0, durationMs: 0 };
}

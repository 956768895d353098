import { succeeded, type RowOutcome } from './batch.js';
import type { PreparedJob } from './prepareJob.js';
import type { JobResult } from './runJob.js';

/** One row in a summary: its last attempt, and how many attempts it took. */
export type RowSummary = Omit<RowOutcome, 'attempt'> & { attempts: number };

/**
 * What a job did, as `rote run --json` prints it and a failure notice sends it: totals first, then
 * a line per row, known by its number (its values stay in the rows file). Secrets are masked in
 * every message, so it can go to a log, a webhook or a ticket as it is.
 */
export type JobSummary = {
  task: string;
  taskKey: string;
  url: string;
  rows: number;
  /** Rows that ended well: replayed from the cache, or done with the agent's help. */
  succeeded: number;
  /** Of those, replayed with no agent call. */
  replayed: number;
  /** Of those, handed over to the agent for some steps. */
  handedOver: number;
  /** Rows that did not end well: diverged or failed. */
  failed: number;
  /** Rows stopped between two steps (a clean stop), and rows not started before it. */
  interrupted: number;
  notStarted: number;
  agentCalls: number;
  attempts: number;
  durationMs: number;
  stopped: boolean;
  results: RowSummary[];
  /** Every run the job made, retried attempts included: what a report of the schedule shows. */
  runIds: string[];
};

export function summarizeJob(job: PreparedJob, result: JobResult): JobSummary {
  const attemptsByRow = new Map<number, number>();
  for (const attempt of result.attempts) attemptsByRow.set(attempt.row, Math.max(attemptsByRow.get(attempt.row) ?? 0, attempt.attempt));
  const results = result.outcomes.map(({ attempt: _attempt, ...outcome }): RowSummary => ({ ...outcome, attempts: attemptsByRow.get(outcome.row) ?? 1 }));
  const good = results.filter(succeeded);
  return {
    task: job.task.taskTemplate,
    taskKey: job.task.id,
    url: job.url,
    rows: job.rows.length,
    succeeded: good.length,
    replayed: good.filter((row) => row.status === 'replayed').length,
    handedOver: good.filter((row) => row.status !== 'replayed').length,
    failed: results.filter((row) => row.status === 'diverged' || row.status === 'failed').length,
    interrupted: results.filter((row) => row.status === 'interrupted').length,
    notStarted: job.rows.length - results.length,
    agentCalls: result.attempts.reduce((sum, attempt) => sum + attempt.agentCalls, 0),
    attempts: result.attempts.length,
    durationMs: result.durationMs,
    stopped: result.stopped,
    results,
    runIds: result.attempts.flatMap((attempt) => (attempt.runId ? [attempt.runId] : [])),
  };
}

/** The first row that did not end well, with where it diverged or why it failed: what a person reads first. */
export function firstProblem(summary: JobSummary): { row: number; status: string; runId: string | undefined; step?: number; reason: string } | undefined {
  const row = summary.results.find((result) => !succeeded(result));
  if (!row) return undefined;
  return {
    row: row.row,
    status: row.status,
    runId: row.runId,
    ...(row.divergence ? { step: row.divergence.step } : {}),
    reason: row.divergence?.reason ?? row.error ?? row.status,
  };
}

/** The totals in one sentence: "6 rows: 6 replayed, 0 handed over, 0 failed; 0 agent calls; 7.9 s". */
export function describeTotals(summary: JobSummary): string {
  const stopped = summary.interrupted + summary.notStarted > 0 ? `, ${summary.interrupted} interrupted, ${summary.notStarted} not started` : '';
  const calls = `${summary.agentCalls} agent call${summary.agentCalls === 1 ? '' : 's'}`;
  return `${summary.rows} row${summary.rows === 1 ? '' : 's'}: ${summary.replayed} replayed, ${summary.handedOver} handed over, ${summary.failed} failed${stopped}; ${calls}; ${(summary.durationMs / 1000).toFixed(1)} s`;
}

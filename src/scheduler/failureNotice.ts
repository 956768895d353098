import { firstProblem } from './jobSummary.js';
import type { SlotEnded } from './slotRunner.js';

/** What a failure notice says: the schedule, the slot, each row's run and status, and where the first one went wrong. */
export function failureNotice(schedule: string, slotId: string, ended: SlotEnded) {
  const problem = ended.summary ? firstProblem(ended.summary) : undefined;
  return {
    schedule,
    slot: { id: slotId, at: new Date(ended.slotAt).toISOString(), status: ended.status, reason: ended.reason ?? null },
    runs: (ended.summary?.results ?? []).map((row) => ({ row: row.row, runId: row.runId ?? null, status: row.status, attempts: row.attempts })),
    firstDivergence: problem ? { row: problem.row, runId: problem.runId ?? null, step: problem.step ?? null, reason: problem.reason } : null,
    totals: ended.summary ? { rows: ended.summary.rows, succeeded: ended.summary.succeeded, failed: ended.summary.failed, agentCalls: ended.summary.agentCalls } : null,
  };
}

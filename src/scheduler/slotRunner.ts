import { randomUUID } from 'node:crypto';
import { firstLineOf, messageOf } from '../errors/messageOf.js';
import type { Rote } from '../rote.js';
import type { ScheduleRow } from '../store/scheduleStore.js';
import type { BrowserSupply } from './batch.js';
import { firstProblem, summarizeJob, type JobSummary } from './jobSummary.js';
import { notifyFailure } from './notify.js';
import { prepareJob } from './prepareJob.js';
import { runJob } from './runJob.js';
import type { Schedule } from './scheduleSpec.js';

/** What became of one slot that ran: the daemon's log line, tests and the demo read it. */
export type SlotEnded = { schedule: string; slotAt: number; status: 'succeeded' | 'failed' | 'interrupted'; reason?: string; summary?: JobSummary; notified?: string };

export type SlotDeps = { rote: Rote; env: NodeJS.ProcessEnv; browsers: BrowserSupply; log: (line: string) => void; stop?: AbortSignal };

/**
 * Runs one slot of a schedule: recorded before anything runs (a slot another daemon took is not
 * run twice, and a kill leaves a trace the next open marks interrupted), its job checked again
 * and run with the job's retries, its end recorded with the job's summary, and a failure told to
 * the schedule's `onFailure`. Undefined when the slot was taken already.
 */
export async function runSlot(deps: SlotDeps, schedule: Schedule, row: ScheduleRow, slotAt: number): Promise<SlotEnded | undefined> {
  const { rote, env, log } = deps;
  const slotId = randomUUID();
  if (!rote.store.schedules.beginSlot({ id: slotId, scheduleId: row.id, slotAt, pid: process.pid, startedAt: Date.now() })) return undefined;
  log(`${row.name}: slot ${iso(slotAt)} started`);
  let ended: SlotEnded;
  try {
    const job = await prepareJob(schedule.job, rote.store, env, `schedule "${row.name}"`);
    const result = await runJob(job, rote, deps.browsers, deps.stop ? { stop: deps.stop } : {});
    const summary = summarizeJob(job, result);
    const problem = firstProblem(summary);
    const status = result.stopped ? 'interrupted' : problem ? 'failed' : 'succeeded';
    const reason =
      status === 'interrupted' ? `stopped (${String(deps.stop?.reason ?? 'stop requested')})` : problem ? `row ${problem.row} ${problem.status}${problem.step ? ` at step ${problem.step}` : ''}: ${problem.reason}` : undefined;
    ended = { schedule: row.name, slotAt, status, summary, ...(reason ? { reason } : {}) };
  } catch (error) {
    // The job could not start (a task gone, a rows file that no longer fits, a secret unset).
    ended = { schedule: row.name, slotAt, status: 'failed', reason: firstLineOf(messageOf(error)) };
  }
  rote.store.schedules.finishSlot(slotId, { status: ended.status, ...(ended.reason ? { reason: ended.reason } : {}), summary: ended.summary ?? null });
  if (ended.status === 'failed' && schedule.onFailure) {
    const problem = await notifyFailure(schedule.onFailure, failureNotice(row.name, slotId, ended));
    ended.notified = problem ? `the failure notice was not delivered: ${problem}` : 'the failure notice was delivered';
  }
  log(`${row.name}: slot ${iso(slotAt)} ${ended.status}${describeSummary(ended.summary)}${ended.reason ? `: ${ended.reason}` : ''}${ended.notified ? `; ${ended.notified}` : ''}`);
  return ended;
}

/** What a failure notice says: the schedule, the slot, each row's run and status, and where the first one went wrong. */
export function failureNotice(schedule: string, slotId: string, ended: SlotEnded) {
  const problem = ended.summary ? firstProblem(ended.summary) : undefined;
  return {
    schedule,
    slot: { id: slotId, at: iso(ended.slotAt), status: ended.status, reason: ended.reason ?? null },
    runs: (ended.summary?.results ?? []).map((row) => ({ row: row.row, runId: row.runId ?? null, status: row.status, attempts: row.attempts })),
    firstDivergence: problem ? { row: problem.row, runId: problem.runId ?? null, step: problem.step ?? null, reason: problem.reason } : null,
    totals: ended.summary ? { rows: ended.summary.rows, succeeded: ended.summary.succeeded, failed: ended.summary.failed, agentCalls: ended.summary.agentCalls } : null,
  };
}

function describeSummary(summary: JobSummary | undefined): string {
  if (!summary) return '';
  const stopped = summary.interrupted + summary.notStarted > 0 ? `, ${summary.interrupted} interrupted, ${summary.notStarted} not started` : '';
  return ` (${summary.rows} row${summary.rows === 1 ? '' : 's'}: ${summary.replayed} replayed, ${summary.handedOver} handed over, ${summary.failed} failed${stopped}; ${summary.agentCalls} agent calls; ${(summary.durationMs / 1000).toFixed(1)} s)`;
}

export function iso(at: number): string {
  return new Date(at).toISOString();
}

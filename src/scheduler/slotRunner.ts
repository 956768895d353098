import { randomUUID } from 'node:crypto';
import { firstLineOf, messageOf } from '../errors/messageOf.js';
import type { Rote } from '../rote.js';
import type { ScheduleRow, SlotTrigger } from '../store/scheduleStore.js';
import type { SlotStatus } from '../store/columnValues.js';
import { writeReport } from '../report/writeReport.js';
import { failureNotice } from './failureNotice.js';
import type { BrowserSupply } from './browserSupply.js';
import { describeTotals, firstProblem, summarizeJob, type JobSummary } from './jobSummary.js';
import { notifyFailure } from './notify.js';
import type { AgentCatalog } from './agentCatalog.js';
import { prepareJob, type PreparedJob } from './prepareJob.js';
import { runJob, type JobResult } from './runJob.js';
import type { Schedule } from './scheduleSpec.js';

/** What became of one slot that ran: the daemon's log line, tests and the demo read it. */
export type SlotEnded = { schedule: string; slotAt: number; status: Extract<SlotStatus, 'succeeded' | 'failed' | 'interrupted'>; reason?: string; summary?: JobSummary; notified?: string };

export type SlotDeps = {
  rote: Rote;
  env: NodeJS.ProcessEnv;
  agents: AgentCatalog;
  browsers: BrowserSupply;
  log: (line: string) => void;
  stop?: AbortSignal;
  /** Runs the slot's rows; default in this process (runJob). A PostgreSQL worker queues one job per row instead. */
  runRows?: (job: PreparedJob, stop: AbortSignal | undefined) => Promise<JobResult>;
};

/**
 * Runs one slot of a schedule: recorded before anything runs (a slot another daemon took is not
 * run twice, and a kill leaves a trace the next open marks interrupted), its job checked again
 * and run with the job's retries, its end recorded with the job's summary, and a failure told to
 * the schedule's `onFailure`. Undefined when the slot was taken already.
 */
export async function runSlot(deps: SlotDeps, schedule: Schedule, row: ScheduleRow, slotAt: number, trigger: SlotTrigger = 'cron'): Promise<SlotEnded | undefined> {
  const { rote, env, log } = deps;
  const slotId = randomUUID();
  if (!(await rote.store.schedules.beginSlot({ id: slotId, scheduleId: row.id, slotAt, pid: process.pid, startedAt: Date.now(), trigger }))) return undefined;
  log(`${row.name}: slot ${iso(slotAt)} started`);
  let ended: SlotEnded;
  try {
    const job = await prepareJob(schedule.job, { store: rote.store, env, agents: deps.agents }, `schedule "${row.name}"`);
    const result = deps.runRows ? await deps.runRows(job, deps.stop) : await runJob(job, rote, deps.browsers, deps.stop ? { stop: deps.stop } : {});
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
  await rote.store.schedules.finishSlot(slotId, { status: ended.status, ...(ended.reason ? { reason: ended.reason } : {}), summary: ended.summary ?? null });
  if (ended.status === 'failed' && schedule.onFailure) {
    // The command gets the daemon's environment without the secrets the job reads, nor the model's key.
    const withheld = new Set([...Object.values(schedule.job.secrets), 'OPENAI_API_KEY']);
    const env = Object.fromEntries(Object.entries(deps.env).filter(([name]) => !withheld.has(name)));
    const problem = await notifyFailure(schedule.onFailure, failureNotice(row.name, slotId, ended), env);
    ended.notified = problem ? `the failure notice was not delivered: ${problem}` : 'the failure notice was delivered';
  }
  if (schedule.job.report) {
    // The schedule's report is kept up to date after every slot; a report that cannot be written never fails the slot.
    try {
      await writeReport(rote.store, { scheduleName: row.name }, schedule.job.report);
    } catch (error) {
      log(`${row.name}: the report at ${schedule.job.report} could not be written: ${firstLineOf(messageOf(error))}`);
    }
  }
  for (const warning of new Set(ended.summary?.results.flatMap((result) => result.warnings ?? []) ?? [])) log(`${row.name}: warning: ${warning}`);
  log(`${row.name}: slot ${iso(slotAt)} ${ended.status}${describeSummary(ended.summary)}${ended.reason ? `: ${ended.reason}` : ''}${ended.notified ? `; ${ended.notified}` : ''}`);
  return ended;
}

function describeSummary(summary: JobSummary | undefined): string {
  return summary ? ` (${describeTotals(summary)})` : '';
}

export function iso(at: number): string {
  return new Date(at).toISOString();
}

import { randomUUID } from 'node:crypto';
import { firstLineOf, messageOf } from '../../errors/messageOf.js';
import { RoteError, type RoteErrorCode } from '../../errors/roteError.js';
import { SECRET_MASK } from '../../params/secret.js';
import type { Rote } from '../../rote.js';
import type { AgentCatalog } from '../agentCatalog.js';
import { mayPass, runBatch, succeeded, type RowOutcome } from '../batch.js';
import type { BrowserSupply } from '../browserSupply.js';
import { rowsForTask } from '../rowParams.js';
import type { QueuedJob } from './jobQueue.js';
import { rowJobSchema, type RowJob } from './rowJob.js';

export type RowWorkerDeps = {
  rote: Rote;
  browsers: BrowserSupply;
  env: NodeJS.ProcessEnv;
  agents: AgentCatalog;
  log: (line: string) => void;
  /** A clean stop: runs under way end before their next step, and their jobs go back to the queue. */
  stop: AbortSignal;
};

/** How long before its job's expiry a worker stops a row that is still under way. */
const WATCHDOG_LEAD_S = 15;

/** Thrown to give a row's job back to the queue (pg-boss retries it); its message is the job's output. */
export class RowRetry extends Error {
  constructor(readonly outcome: RowOutcome) {
    super(`row ${outcome.row} ${outcome.status}${outcome.error ? `: ${outcome.error}` : ''}; given back to the queue`);
  }
}

/**
 * Runs one row job on this worker and returns its outcome, the job's output. Every attempt leaves
 * a run record (tagged with the job) that reports read. A run left 'running' by a worker that died
 * is closed out first. The job goes back to the queue (thrown) only when running the row again
 * cannot repeat what the app already took: a run stopped (this worker stopping, or its watchdog)
 * before any step, or a failure that may pass, with attempts left, before the run could commit.
 * A divergence, a row the task refuses, a run stopped after a step, or a run whose record could
 * not be committed (its steps ran: the submit may have gone) is the job's outcome, never retried.
 */
export async function runRowJob(deps: RowWorkerDeps, job: QueuedJob<unknown>): Promise<RowOutcome> {
  const { rote } = deps;
  const parsed = rowJobSchema.safeParse(job.data);
  if (!parsed.success) return failedBeforeRun(0, 1, 'invalid-argument', `job ${job.id} is not a rote row job: ${parsed.error.issues[0]?.message ?? 'unreadable'}`);
  const data = parsed.data;
  if (job.retryCount > 0) {
    await rote.store.markRunsOfJobInterrupted(job.id, `the worker running this row stopped before the run ended; the job was taken up again by process ${process.pid}`);
  }
  const earlier = await rote.store.findRuns({ jobIds: [job.id] });
  const attempt = earlier.filter((run) => run.status !== 'running' && run.status !== 'interrupted').length + 1;
  let outcome: RowOutcome;
  // The worker gives the row up before pg-boss would take it for dead and hand it to another worker:
  // the run ends before its next step, recorded interrupted, and the job goes back to the queue.
  const claimed = Date.now();
  const givenUpAt = claimed + Math.max(1, job.expireInSeconds - WATCHDOG_LEAD_S) * 1000;
  const watchdog = AbortSignal.any([deps.stop, AbortSignal.timeout(givenUpAt - claimed)]);
  try {
    outcome = await runRow({ ...deps, stop: watchdog }, data, job.id, attempt, givenUpAt);
  } catch (error) {
    const code = RoteError.isInstance(error) ? error.code : 'internal';
    outcome = failedBeforeRun(data.row, attempt, code, firstLineOf(messageOf(error)));
  }
  if (outcome.runId === undefined) outcome = { ...outcome, runId: await recordFailedStart(rote, data, job.id, outcome) };
  deps.log(`batch ${data.batch.slice(0, 8)} row ${data.row}: ${outcome.status}${outcome.error ? ` (${outcome.error})` : ''}, attempt ${attempt}, run ${outcome.runId?.slice(0, 8) ?? '-'}`);
  if (mayRunAgain(outcome, attempt, data.attempts)) throw new RowRetry(outcome);
  return outcome;
}

function mayRunAgain(outcome: RowOutcome, attempt: number, attempts: number): boolean {
  const stepsDone = outcome.cachedSteps + outcome.relocatedSteps + outcome.agentSteps;
  if (outcome.status === 'interrupted') return stepsDone === 0;
  // A store error after the run began is its commit: the steps ran, and the app may hold the submit.
  if (outcome.errorCode === 'store') return false;
  return !succeeded(outcome) && mayPass(outcome) && attempt < attempts;
}

async function runRow(deps: RowWorkerDeps, data: RowJob, jobId: string, attempt: number, givenUpAt: number): Promise<RowOutcome> {
  const where = `row ${data.row} of batch ${data.batch}`;
  const task = await deps.rote.store.getTask(data.taskKey);
  if (!task) throw new RoteError('invalid-argument', `${where}: the store has no task ${data.taskKey}`);
  const secrets: Record<string, string> = {};
  const unset: string[] = [];
  for (const [name, variable] of Object.entries(data.secrets)) {
    const value = deps.env[variable];
    if (value === undefined || value === '') unset.push(`${variable} (secret ${JSON.stringify(name)})`);
    else secrets[name] = value;
  }
  if (unset.length > 0) throw new RoteError('invalid-argument', `${where}: this worker's environment does not set ${unset.join(', ')}`);
  // Checked again here, against the task as stored now: the store may have learned since the row was queued.
  const rows = rowsForTask(task, Object.keys(data.values), [{ index: data.row, line: 0, values: data.values }], { plain: {}, secrets }, where);
  const agent = deps.agents(data.agent, data.model ? { model: data.model } : {}, deps.env, where);
  const [outcome] = await runBatch(
    {
      rote: deps.rote,
      browsers: deps.browsers,
      task: task.taskTemplate,
      tags: task.tags,
      url: data.url,
      rows,
      concurrency: 1,
      mode: data.mode,
      ...(agent.create ? { agent: agent.create } : {}),
      // Within what is left before the worker gives the row up, so the run's own deadline ends it first.
      timeout: Math.max(1_000, Math.min(data.timeout, givenUpAt - Date.now())),
      stop: deps.stop,
      jobId,
    },
    attempt,
  );
  if (!outcome) throw new RoteError('aborted', `${where}: the worker stopped before the row started`);
  return outcome;
}

function failedBeforeRun(row: number, attempt: number, errorCode: RoteErrorCode, error: string): RowOutcome {
  return { row, attempt, status: errorCode === 'aborted' ? 'interrupted' : 'failed', runId: undefined, cachedSteps: 0, relocatedSteps: 0, agentSteps: 0, agentCalls: 0, durationMs: 0, error, errorCode };
}

/** A row that failed before its run began (a task gone, a secret unset here) still gets a run record, so the report shows it. */
async function recordFailedStart(rote: Rote, data: RowJob, jobId: string, outcome: RowOutcome): Promise<string | undefined> {
  const id = randomUUID();
  const now = Date.now();
  try {
    const task = await rote.store.getTask(data.taskKey);
    const taskId = task ? task.id : null;
    const params = { ...data.values, ...Object.fromEntries(Object.keys(data.secrets).map((name) => [name, SECRET_MASK])) };
    await rote.store.beginRun({ id, taskId, task: task?.taskTemplate ?? `(task ${data.taskKey})`, mode: data.mode, startedAt: now, pid: process.pid, jobId, params });
    await rote.store.commitRun({
      run: { id, taskId, status: outcome.status === 'interrupted' ? 'interrupted' : 'failed', endedAt: now, durationMs: 0, agentCalls: 0, cachedSteps: 0, relocatedSteps: 0, agentSteps: 0, modelCalls: 0, inputTokens: 0, outputTokens: 0, error: outcome.error ?? null },
    });
    return id;
  } catch {
    return undefined;
  }
}

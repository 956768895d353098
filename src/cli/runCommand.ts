import { RoteError } from '../errors/roteError.js';
import { agentByName } from './agentByName.js';
import { firstLineOf, messageOf } from '../errors/messageOf.js';
import { Rote } from '../rote.js';
import { checkReportFolder, writeReport } from '../report/writeReport.js';
import { mayPass, succeeded, type RowOutcome } from '../scheduler/batch.js';
import { unattendedBrowsers } from '../scheduler/browserSupply.js';
import type { JobSpec } from '../scheduler/jobSpec.js';
import { specFrom, type JobArgs } from './jobArgs.js';
import { describeTotals, firstProblem, summarizeJob, type JobSummary } from '../scheduler/jobSummary.js';
import { prepareJob, type PreparedJob } from '../scheduler/prepareJob.js';
import { runJob, type JobHooks, type JobResult } from '../scheduler/runJob.js';
import type { JobQueue } from '../scheduler/queue/jobQueue.js';
import { ROWS_FORMATS, rowsFormatOf, writeRowsFile } from '../scheduler/rowsFile.js';
import { batchProgress } from './batchProgress.js';
import { formatTable } from './table.js';
import { exitOnUsage, USAGE_EXIT } from './usage.js';

/** Exit codes of `rote run` (and docs/cli.md's table of them). */
export const EXIT = { ok: 0, runsFailed: 1, usage: USAGE_EXIT } as const;

export type RunCommandOptions = JobArgs & {
  retryFailed?: string;
  headed?: boolean;
  json?: boolean;
  store: string;
};

export type RunIo = { env: NodeJS.ProcessEnv; out: (text: string) => void; err: (text: string) => void; stderr?: NodeJS.WriteStream; onStop?: (stop: () => void) => () => void };

/**
 * `rote run <task|folder>`: runs a stored task (or a recording folder) once, or once per row of
 * a file, and prints what each run did. Everything is checked before a browser starts: a bad
 * argument, an unknown task, a row that does not fit the task, an unset secret is one error and
 * exit code 2. Exit 0 when every row ended well, 1 when any diverged or failed.
 */
export async function runCommand(taskReference: string, options: RunCommandOptions, io: RunIo = processRunIo()): Promise<number> {
  const where = `rote run ${JSON.stringify(taskReference)}`;
  return exitOnUsage(io.err, async () => {
    const spec = specFrom(taskReference, options, where, options.headed ?? false);
    if (options.retryFailed !== undefined && spec.rowsFile === undefined) throw new RoteError('invalid-argument', `${where}: --retry-failed writes the rows to run again; it needs --rows`);
    if (options.retryFailed !== undefined && !rowsFormatOf(options.retryFailed)) throw new RoteError('invalid-argument', `${where}: --retry-failed "${options.retryFailed}" must end in ${ROWS_FORMATS.join(', ')} (the rows are written in that format, to run again with --rows)`);
    if (spec.report !== undefined) checkReportFolder(spec.report, where);
    const rote = await Rote.open({ store: options.store });
    let queue: JobQueue | undefined;
    try {
      // Rows on a PostgreSQL store go through its queue, opened (and its version checked) before anything else is done.
      if (rote.store.dialect === 'postgres' && spec.rowsFile !== undefined) queue = await openQueue(options.store);
      const job = await prepareJob(spec, { store: rote.store, env: io.env, agents: agentByName }, where);
      return await execute(job, rote, queue, options, io);
    } finally {
      try {
        await queue?.stop({ graceful: false });
      } finally {
        await rote.close();
      }
    }
  });
}

async function execute(job: PreparedJob, rote: Rote, queue: JobQueue | undefined, options: RunCommandOptions, io: RunIo): Promise<number> {
  const json = options.json ?? false;
  const say = (line: string) => {
    if (!json) io.out(`${line}\n`);
  };
  const { spec } = job;
  say(`${job.rows.length === 1 ? 'Running' : `Running ${job.rows.length} rows of`} "${job.task.taskTemplate}" (task ${job.task.id.slice(0, 12)}) on ${job.url}`);
  say(`Agent: ${job.agent.description}. Mode ${spec.mode}${job.rows.length > 1 && !queue ? `, ${spec.concurrency} at once` : ''}.`);
  const progress = batchProgress(job.rows.length, { json, ...(io.stderr ? { stream: io.stderr } : {}) });
  const stopping = new AbortController();
  const unsubscribe = io.onStop?.(() => stopping.abort('stopped by the user (Ctrl+C)')) ?? (() => undefined);
  let summary: JobSummary;
  try {
    const hooks = { stop: stopping.signal, onRowEnd: (outcome: RowOutcome) => progress.rowEnded(outcome, willRetry(outcome, spec)) };
    const result = queue ? await runOnQueue(job, rote, queue, hooks, say, io) : await runInProcess(job, rote, hooks);
    summary = summarizeJob(job, result);
  } finally {
    progress.stop();
    unsubscribe();
  }
  if (options.retryFailed) writeRetryFile(options.retryFailed, job, summary);
  if (spec.report) {
    // The runs have run: a report that cannot be written is a warning, never another exit code or a lost summary.
    try {
      const written = await writeReport(rote.store, { runIds: summary.runIds }, spec.report);
      say(`Report of ${written.runs} run${written.runs === 1 ? '' : 's'}: ${written.index}`);
    } catch (error) {
      io.err(`rote run: the report could not be written to ${spec.report}: ${firstLineOf(messageOf(error))}\n`);
    }
  }
  if (json) io.out(`${JSON.stringify(summary)}\n`);
  else printSummary(summary, say, options.retryFailed);
  return summary.succeeded === summary.rows ? EXIT.ok : EXIT.runsFailed;
}

/** On SQLite (and for a single run): every row in this process, `concurrency` browser contexts at once. */
async function runInProcess(job: PreparedJob, rote: Rote, hooks: JobHooks): Promise<JobResult> {
  const browsers = unattendedBrowsers({ headless: !job.spec.headed });
  try {
    return await runJob(job, rote, browsers, hooks);
  } finally {
    await browsers.close();
  }
}

/** On PostgreSQL: one queue job per row, for `rote worker` processes on any machine; this process waits for them. */
async function runOnQueue(job: PreparedJob, rote: Rote, queue: JobQueue, hooks: JobHooks, say: (line: string) => void, io: RunIo): Promise<JobResult> {
  const { runJobOnQueue } = await import('../scheduler/queue/runJobOnQueue.js');
  return runJobOnQueue(job, queue, rote.store, {
    ...hooks,
    onQueued: (batch, ids) => say(`Queued ${ids.length} row${ids.length === 1 ? '' : 's'} as batch ${batch.slice(0, 8)} on ${queue.location}; rote worker processes run them (rote worker --store URL).`),
    // Said on stderr even with --json: stdout carries only the summary there.
    onNoWorker: (waited) => io.err(`rote run: no worker has taken a row in ${Math.round(waited / 1000)} s; is one running? (rote worker --store URL on a machine with a browser)\n`),
  });
}

/** Loaded only for a PostgreSQL store: the embedded default never needs pg-boss. */
async function openQueue(url: string): Promise<JobQueue> {
  const { JobQueue } = await import('../scheduler/queue/jobQueue.js');
  return JobQueue.open(url);
}

function willRetry(outcome: RowOutcome, spec: JobSpec): boolean {
  return !succeeded(outcome) && mayPass(outcome) && outcome.attempt < spec.retry.attempts;
}

function printSummary(summary: JobSummary, say: (line: string) => void, retryFile: string | undefined): void {
  const header = ['row', 'status', 'cached', 'relocated', 'agent steps', 'agent calls', 'attempts', 'time'];
  const rows = summary.results.map((row) => [row.row, row.status, row.cachedSteps, row.relocatedSteps, row.agentSteps, row.agentCalls, row.attempts, `${(row.durationMs / 1000).toFixed(2)} s`]);
  say('');
  say(formatTable(header, rows));
  for (const row of summary.results.filter((result) => !succeeded(result))) {
    say(`row ${row.row} ${row.status}${row.divergence ? ` at step ${row.divergence.step}: ${row.divergence.reason}` : row.error ? `: ${row.error}` : ''}${row.runId ? ` (run ${row.runId})` : ''}`);
  }
  // The same damaged step is met by every row: said once.
  for (const warning of new Set(summary.results.flatMap((row) => row.warnings ?? []))) say(`warning: ${warning}`);
  say('');
  say(`${describeTotals(summary)}.`);
  const problem = firstProblem(summary);
  if (problem && retryFile) say(`The rows to run again are in ${retryFile} (rote run ... --rows ${retryFile}).`);
}

/**
 * The rows that did not end well (or never started), in the rows file's own format (by the
 * extension of `path`, checked before the batch ran), so `--rows path` runs just them again. Only
 * the rows' own columns: shared values are given again on the command line, a secret comes from
 * its environment variable again.
 */
function writeRetryFile(path: string, job: PreparedJob, summary: JobSummary): void {
  const done = new Set(summary.results.filter(succeeded).map((row) => row.row));
  writeRowsFile(path, rowsFormatOf(path) ?? '.csv', job.rows.filter((row) => !done.has(row.index)).map((row) => row.values));
}

function processRunIo(): RunIo {
  return {
    env: process.env,
    out: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text),
    stderr: process.stderr,
    onStop: (stop) => {
      const listener = () => stop();
      process.once('SIGINT', listener);
      process.once('SIGTERM', listener);
      return () => {
        process.off('SIGINT', listener);
        process.off('SIGTERM', listener);
      };
    },
  };
}

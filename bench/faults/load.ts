import { spawn } from 'node:child_process';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { INTAKE_TASK, submissionProblems } from '../../src/demo/patients.js';
import { demoAgent } from '../../src/demo/demoAgent.js';
import { firstLineOf } from '../../src/errors/messageOf.js';
import { Rote } from '../../src/rote.js';
import type { CrashEnvironment } from './crashes.js';
import { LOAD_PATIENTS, wrongSubmissions } from './crashPatients.js';
import type { FaultOutcome } from './faultOutcome.js';
import { LOAD_RUN_TIMEOUT_MS, loadWorkers, type LoadRun } from './loadWorkers.js';
import { storeProblems } from './storeProblems.js';
import { within } from './within.js';

/**
 * Runs at once in each of the two processes: 4 at once on the store. Eight (4 in each) starve
 * what runs beside the load on two cores: replays then take 14 s and takeovers their deadline.
 */
const RUNS_AT_ONCE = 2;
/** A run that takes longer than its deadline, the overrun grace and this slack is hung. */
const HANG_MS = LOAD_RUN_TIMEOUT_MS + 15_000;
/** What SQLite says when a writer or reader gives up on the lock: it must never reach the user. */
const LOCKED = /database is locked|SQLITE_BUSY|database table is locked/i;

/** Between two reads. */
const READ_PAUSE_MS = 1_500;

type Read = { what: string; code: number | null; output: string; ms: number };

/**
 * Load: for `durationMs`, this process runs 2 replays at once on the store while a second process
 * does the same on the same store file (4 at once on the store), and a reader lists runs and exports the recording through
 * the CLI (a third process each time); the suite injects its page faults meanwhile. Then every run must be
 * in the store with the status its caller got, no "database is locked" may have reached anyone,
 * every run that claims success must have submitted its own values exactly once, and the store
 * must be consistent.
 */
export async function injectLoad(env: CrashEnvironment, taskKey: string, durationMs: number): Promise<FaultOutcome[]> {
  const startedAt = Date.now();
  const until = startedAt + durationMs;
  const submittedBefore = env.app.submissions.length;
  const child = spawn(process.execPath, [join(env.root, 'dist', 'bench', 'faults', 'loadChild.js'), env.storePath, env.app.url, String(until), String(RUNS_AT_ONCE)], { stdio: ['ignore', 'pipe', 'pipe'] });
  const childRuns: LoadRun[] = [];
  let childOut = '';
  let childErr = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    childOut += chunk.toString();
    for (let end = childOut.indexOf('\n'); end >= 0; end = childOut.indexOf('\n')) {
      const line = childOut.slice(0, end);
      childOut = childOut.slice(end + 1);
      if (line.startsWith('{')) childRuns.push(JSON.parse(line) as LoadRun);
    }
  });
  child.stderr!.on('data', (chunk: Buffer) => (childErr += chunk.toString()));
  const childExit = new Promise<number | null>((resolve) => child.on('exit', resolve));

  const ownRuns: LoadRun[] = [];
  const reads: Read[] = [];
  const rote = await Rote.open({ store: env.storePath });
  try {
    await Promise.all([
      loadWorkers({ rote, browser: env.browser, url: env.app.url, workers: RUNS_AT_ONCE, until, first: 0, onRun: (run) => ownRuns.push(run) }),
      reader(env, taskKey, until, reads),
    ]);
  } finally {
    await rote.close();
  }
  const childCode = await within(childExit, HANG_MS, 'hung' as const);
  if (childCode === 'hung') child.kill('SIGKILL');

  const problems = await storeProblems(env.storePath);
  const stored = storedRuns(env.storePath, startedAt);
  const submitted = env.app.submissions.slice(submittedBefore);
  const allRuns = [...ownRuns, ...childRuns];
  const unaccounted = patientsUnaccounted(allRuns, submitted);
  // The load has its app to itself: a submission of nobody's values is wrong.
  const wrong = wrongSubmissions(submitted);
  // The second process makes no run but the load's: any other row of its pid is one no caller got.
  const extraRows = runsOfPid(env.storePath, startedAt, child.pid!) - childRuns.filter((run) => run.runId).length;

  const runOutcome = (kind: string) => (run: LoadRun): FaultOutcome => {
    const notes: string[] = [];
    if (run.thrown) notes.push(`rote.run threw: ${firstLineOf(run.error)}`);
    if (run.error && LOCKED.test(run.error)) notes.push(`the lock reached the caller: ${firstLineOf(run.error)}`);
    const row = run.runId ? stored.get(run.runId) : undefined;
    const lost = run.runId !== undefined && row !== run.status;
    if (lost) notes.push(`run ${run.runId} is ${row === undefined ? 'not in the store' : `stored as ${row}`}, its caller got ${run.status}`);
    if (run.status === 'interrupted') notes.push('ended interrupted, which only a stop may do');
    const note = unaccounted.get(run.patient);
    if (note) notes.push(note);
    const hang = run.ms > HANG_MS;
    if (hang) notes.push(`took ${run.ms} ms`);
    return { kind, clean: notes.length === 0, lost, wrong: 0, hang, notes };
  };
  const outcomes = [
    ...ownRuns.map(runOutcome(`load: ${RUNS_AT_ONCE} runs at once + a reader`)),
    ...childRuns.map(runOutcome(`load: ${RUNS_AT_ONCE} more at once, second process`)),
    ...reads.map((read): FaultOutcome => {
      const notes = [...(read.code === 0 ? [] : [`exit ${read.code}`]), ...(LOCKED.test(read.output) ? ['said the database is locked'] : [])];
      if (notes.length > 0) notes.unshift(`${read.what}: ${firstLineOf(read.output)}`);
      return { kind: 'load: reads (rote runs, rote export)', clean: notes.length === 0, lost: false, wrong: 0, hang: false, notes };
    }),
  ];
  // What belongs to the phase, not to one run: said on its first run, which then is not clean.
  const phaseNotes = [
    ...problems,
    ...(wrong > 0 ? [`${wrong} submission(s) with values no run was given`] : []),
    ...(extraRows !== 0 ? [`${extraRows} run row(s) in the store that no caller got`] : []),
    ...(childCode === 0 ? [] : [`the second process ${childCode === 'hung' ? 'hung' : `exited ${childCode}`}: ${firstLineOf(childErr)}`]),
    ...(LOCKED.test(childErr) ? ['the second process said the database is locked'] : []),
  ];
  const first = outcomes[0];
  if (first && (phaseNotes.length > 0 || wrong > 0)) Object.assign(first, { clean: false, wrong, lost: first.lost || problems.length > 0 || extraRows !== 0, hang: first.hang || childCode === 'hung', notes: [...first.notes, ...phaseNotes] });
  const statuses = (runs: readonly LoadRun[]) => [...new Set(runs.map((run) => run.status))].map((status) => `${runs.filter((run) => run.status === status).length} ${status}`).join(', ') || 'no runs';
  env.log(`load: ${Math.round((Date.now() - startedAt) / 1000)} s: this process ${statuses(ownRuns)}; the second ${statuses(childRuns)}; ${reads.length} reads; ${submitted.length} submissions${phaseNotes.length > 0 ? `; ${phaseNotes.join('; ')}` : ''}`);
  return outcomes;
}

/** The load's app is its own origin, so its own task: recorded once by the demo agent before the load (its key). */
export async function recordLoadTask(env: CrashEnvironment): Promise<string> {
  const rote = await Rote.open({ store: env.storePath });
  const page = await env.browser.newPage({ viewport: { width: 1280, height: 800 } });
  try {
    await page.goto(env.app.url);
    const recorded = await rote.run(page, { task: INTAKE_TASK, params: LOAD_PATIENTS[0]!, agent: demoAgent(page) });
    if (recorded.status !== 'agent') throw new Error(`faults: the load's recording ended ${recorded.status}: ${recorded.error ?? ''}`);
    return recorded.taskKey;
  } finally {
    await page.close();
    await rote.close();
  }
}

/** Lists runs and exports the recording, one after the other, each through the CLI as a user would. */
async function reader(env: CrashEnvironment, taskKey: string, until: number, reads: Read[]): Promise<void> {
  const cli = join(env.root, 'dist', 'src', 'cli', 'main.js');
  const out = join(env.dir, 'load-export');
  for (let turn = 0; Date.now() < until; turn++) {
    const args = turn % 2 === 0 ? ['runs', '--store', env.storePath, '--limit', '50'] : ['export', taskKey, '--out', out, '--store', env.storePath];
    const started = Date.now();
    const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    reads.push({ what: `rote ${args[0]}`, code, output, ms: Date.now() - started });
    // A reader now and then, as a person or a dashboard would, not a second load.
    await new Promise((resolve) => setTimeout(resolve, Math.min(READ_PAUSE_MS, Math.max(0, until - Date.now()))));
  }
}

/**
 * Per patient: runs that claim success must have left a submission each with its values, and runs
 * that did not claim it may have left one at most (a deadline after the submit). A note per patient
 * whose submissions do not fit.
 */
function patientsUnaccounted(runs: readonly LoadRun[], submitted: readonly Parameters<typeof submissionProblems>[1][]): Map<number, string> {
  const notes = new Map<number, string>();
  for (const [patient, params] of LOAD_PATIENTS.entries()) {
    const of = runs.filter((run) => run.patient === patient);
    const claimed = of.filter((run) => run.status === 'replayed' || run.status === 'mixed' || run.status === 'agent').length;
    const others = of.length - claimed;
    const subs = submitted.filter((submission) => submissionProblems(params, submission).length === 0).length;
    if (subs < claimed || subs > claimed + others) notes.set(patient, `patient ${patient}: ${claimed} run(s) claimed success, ${others} did not, ${subs} submission(s)`);
  }
  return notes;
}

function storedRuns(path: string, since: number): Map<string, string> {
  const db = new Database(path, { readonly: true });
  try {
    const rows = db.prepare('SELECT id, status FROM runs WHERE started_at >= ?').all(since) as { id: string; status: string }[];
    return new Map(rows.map((row) => [row.id, row.status]));
  } finally {
    db.close();
  }
}

function runsOfPid(path: string, since: number, pid: number): number {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM runs WHERE started_at >= ? AND pid = ?').get(since, pid) as { n: number }).n;
  } finally {
    db.close();
  }
}

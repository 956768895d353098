/**
 * The PostgreSQL store and its workers at scale, on a private PostgreSQL 15 this benchmark starts
 * (and throws away): cache lookups and run commits with 100,000 stored trajectories, claiming a
 * job from a queue of 100,000 with rote's claim index and without it, and rows per minute through
 * 1, 2 and 4 `rote worker` processes against the demo intake app, with where the CPU went.
 * Figures go to bench/results/postgres-latest.json and are printed as a table; `--json` prints
 * them as one JSON line too. Measured, never asserted: timings here are noisy, read them as
 * medians, p99s and ratios taken in one run.
 *
 *   npm run bench:postgres -- [--quick] [--json]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import PgBoss from 'pg-boss';
import type { Browser } from 'playwright';
import { launchBrowser } from '../src/browser/launch.js';
import { startIntakeApp, type IntakeApp } from '../src/demo/app/server.js';
import { demoAgent } from '../src/demo/demoAgent.js';
import { DEMO_PATIENTS, INTAKE_TASK } from '../src/demo/patients.js';
import { Rote } from '../src/rote.js';
import type { JobSummary } from '../src/scheduler/jobSummary.js';
import { JobQueue, QUEUE_SCHEMA } from '../src/scheduler/queue/jobQueue.js';
import { ROW_QUEUE, type RowJob } from '../src/scheduler/queue/rowJob.js';
import type { CommitRunInput, NewNodeRow, NodeRow, TaskRow } from '../src/store/rows.js';
import { openStore, type Store } from '../src/store/store.js';
import { startPostgres, type PostgresServer } from '../e2e/support/postgresServer.js';
import { patients, patientsCsv, serverProblems } from '../e2e/support/unattended.js';
import { measureLookup, timeLookups, type LookupFigures } from './lookup.js';
import { sampleCpu, type CpuWindow } from './processCpu.js';
import { quantile, round } from './stats.js';
import { storeSyntheticTrajectories, type StoredTrajectories } from './syntheticTrajectories.js';

/** The built CLI beside this file (dist/bench -> dist/src/cli/main.js), as `npx rote` runs it. */
const CLI = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'cli', 'main.js');

type Sizes = {
  trajectories: number;
  steps: number;
  lookups: number;
  commits: number;
  queuedJobs: number;
  claims: number;
  unindexedClaims: number;
  rows: number;
  workerLevels: readonly number[];
  inProcessLevels: readonly number[];
};

// Eight steps a trajectory, as bench/run.ts fills its SQLite lookup figure (three in the quick run).
const FULL: Sizes = { trajectories: 100_000, steps: 8, lookups: 2_000, commits: 500, queuedJobs: 100_000, claims: 200, unindexedClaims: 30, rows: 40, workerLevels: [1, 2, 4], inProcessLevels: [1, 2] };
const QUICK: Sizes = { trajectories: 10_000, steps: 3, lookups: 2_000, commits: 100, queuedJobs: 10_000, claims: 200, unindexedClaims: 30, rows: 12, workerLevels: [1, 2, 4], inProcessLevels: [1, 2] };

/** Commits at once in the parallel commit figure, each on a store (connection pool) of its own. */
const COMMITS_IN_FLIGHT = 4;
/** New nodes in a run commit: the intake task's 13 steps, learned as a new branch. */
const BRANCH_NODES = 13;
/** Jobs per enqueueRows call: one INSERT of that many rows, as a large `rote run --rows` queues them. */
const ENQUEUE_CHUNK = 5_000;

export type Timing = { count: number; p50Ms: number; p99Ms: number };
export type CommitFigures = Timing & { inFlight: number; commitsPerSecond: number };
export type ClaimFigures = Timing & { index: 'rote_job_claim_idx' | 'none'; plan: string };
/** Where the CPU went while a batch ran, in CPU seconds (the machine has `cpus` cores), and how busy it was. */
export type CpuFigures = {
  busyShare: number;
  /** Seconds of the batch with every core at least 95 % busy, as a share. */
  saturatedShare: number;
  machineS: number;
  /** `rote worker` processes and their Chromium. */
  workersS: number;
  postgresS: number;
  /** The `rote run` process (in-process rows: with its Chromium). */
  roteRunS: number;
  /** This process: the intake app the rows post to, and the CPU sampling itself. */
  appS: number;
  /** Everything else on the machine meanwhile (other work, the kernel). */
  otherS: number;
};
export type BatchLevel = {
  setup: string;
  workers: number;
  concurrency: number;
  rows: number;
  replayed: number;
  /** Rows the app received exactly once, with their values. */
  rightOnServer: number;
  wallMs: number;
  runsPerMinute: number;
  cpu: CpuFigures;
};

export type PostgresScaleResults = {
  measuredAt: string;
  machine: { cpus: number; cpuModel: string; memoryGiB: number; node: string; platform: string; loadAvgAtStart: number[] };
  command: string;
  quick: boolean;
  wallS: number;
  lookup: { postgres: LookupFigures & { fillS: number }; sqlite: LookupFigures };
  commits: CommitFigures[];
  queue: { jobs: number; enqueueS: number; jobsPerSecond: number; claims: ClaimFigures[] };
  batches: BatchLevel[];
};

const log = (line: string) => void process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);

function timing(values: readonly number[]): Timing {
  return { count: values.length, p50Ms: round(quantile(values, 0.5), 2), p99Ms: round(quantile(values, 0.99), 2) };
}

// ---------------------------------------------------------------------------------------------
// 1. Cache lookups with many stored trajectories (the same fill and lookups as bench/lookup.ts).

async function measurePostgresLookup(server: PostgresServer, store: Store, sizes: Sizes): Promise<{ figures: LookupFigures & { fillS: number }; stored: StoredTrajectories }> {
  const began = performance.now();
  const stored = await storeSyntheticTrajectories(store, sizes.trajectories, sizes.steps, (count) => {
    if (count % 20_000 === 0 || count === sizes.trajectories) log(`postgres: ${count.toLocaleString('en')} trajectories stored (${Math.round((performance.now() - began) / 1000)} s)`);
  });
  const fillS = round((performance.now() - began) / 1000, 1);
  // What autovacuum would have done by the time a cache is this big: the planner sees the real sizes.
  await server.query('ANALYZE');
  const timings = await timeLookups(store, stored, sizes.steps, sizes.lookups);
  const size = await server.query<{ bytes: string }>('SELECT pg_database_size(current_database()) AS bytes');
  const figures = { trajectories: sizes.trajectories, nodes: sizes.trajectories * sizes.steps, lookups: sizes.lookups, p50Ms: round(quantile(timings, 0.5), 3), p99Ms: round(quantile(timings, 0.99), 3), fileBytes: Number(size[0]?.bytes ?? 0), fillS };
  return { figures, stored };
}

// ---------------------------------------------------------------------------------------------
// 2. Run commits into the big cache.

/** The engine folds a new node into a stored sibling that is the same step; here, the same action is enough. */
function sameAction(stored: NodeRow, fresh: NodeRow): boolean {
  return JSON.stringify(stored.action) === JSON.stringify(fresh.action);
}

/**
 * What a run that replayed a stored task's first step and then learned the rest with the agent
 * commits (see src/engine/runCommit.ts): the task row, a new 13-node branch under the first node
 * with its crop, the cached node's use count, and the run's 13 steps. Actions carry the commit's
 * number, so no branch is ever equal to a stored one (a fold would write less).
 */
function runCommit(task: TaskRow, firstNode: string, runId: string, commit: number): CommitRunInput {
  const now = Date.now();
  const crop = randomBytes(2_048);
  const cropHash = createHash('sha256').update(crop).digest('hex');
  const newNodes: NewNodeRow[] = [];
  let parentId = firstNode;
  for (let step = 0; step < BRANCH_NODES; step++) {
    const id = randomUUID();
    newNodes.push({
      id,
      taskId: task.id,
      parentId,
      resumeAtId: null,
      action: step % 2 === 0 ? { type: 'click', x: 300 + commit, y: 100 + step * 30, button: 'left' } : { type: 'type', text: `{{field${step}}} ${commit}` },
      intent: `Fill field ${step}`,
      url: 'http://127.0.0.1:1/app/intake',
      fingerprint: { role: 'textbox', name: `Field ${step}`, tag: 'input', inputType: 'text' },
      box: { x: 300, y: 100 + step * 30, width: 260, height: 22 },
      cropHash: step === 0 ? cropHash : null,
      cropRect: { x: -6, y: -6, width: 272, height: 34 },
      masks: [],
      state: { matches: 1, context: null, ahead: [], valueHashes: {} },
      endsRun: step === BRANCH_NODES - 1,
      hits: 1,
      lastUsedAt: now,
      lastSuccessAt: now,
      createdAt: now,
    });
    parentId = id;
  }
  return {
    sameStep: sameAction,
    task: { ...task, updatedAt: now },
    newNodes,
    blobs: [{ hash: cropHash, bytes: crop }],
    nodeStats: [{ id: firstNode, hit: true, usedAt: now, succeeded: true }],
    nodeLinks: [],
    run: { id: runId, taskId: task.id, status: 'mixed', endedAt: now, durationMs: 4_000, agentCalls: BRANCH_NODES, modelCalls: 0, inputTokens: 0, outputTokens: 0, cachedSteps: 1, relocatedSteps: 0, agentSteps: BRANCH_NODES, error: null, screenshotHash: null },
    steps: newNodes.map((node, idx) => ({ runId, idx, nodeId: node.id, kind: 'agent' as const, action: node.action, intent: node.intent ?? null, outcome: 'ok' as const, reason: null, durationMs: 250, checkMs: 20 })),
  };
}

/**
 * `total` commits, `stores.length` at once (one loop per store), each timed from beginRun to the
 * end of commitRun. The task row is read before the clock starts, as the engine has it by then.
 */
async function measureCommits(stores: readonly Store[], stored: StoredTrajectories, total: number): Promise<CommitFigures> {
  const timings: number[] = [];
  let next = 0;
  const began = performance.now();
  await Promise.all(
    stores.map(async (store) => {
      for (let commit = next++; commit < total; commit = next++) {
        const pick = Math.floor(Math.random() * stored.keys.length);
        const task = await store.getTask(stored.keys[pick]!);
        if (!task) throw new Error(`commit benchmark: task ${stored.keys[pick]} is not stored`);
        const runId = randomUUID();
        const input = runCommit(task, stored.firstNodes[pick]!, runId, commit);
        const started = performance.now();
        await store.beginRun({ id: runId, taskId: task.id, task: task.taskTemplate, mode: 'auto', startedAt: Date.now(), pid: process.pid });
        await store.commitRun(input);
        timings.push(performance.now() - started);
      }
    }),
  );
  const wallS = (performance.now() - began) / 1000;
  return { inFlight: stores.length, ...timing(timings), commitsPerSecond: round(total / wallS, 1) };
}

// ---------------------------------------------------------------------------------------------
// 3. Claiming a job from a long queue.

/** A row job as `rote run --rows` queues it; the claim never runs it. */
function syntheticRowJob(batch: string, row: number): RowJob {
  return {
    v: 1,
    batch,
    row,
    taskKey: 'bench-task',
    url: 'http://127.0.0.1:1/intake',
    values: { firstName: `Pat${row}`, lastName: `Row${row}`, dob: '01/02/1970', state: 'Texas', plan: 'basic', reminders: 'true', notes: `Note for row ${row}` },
    secrets: {},
    mode: 'auto',
    agent: 'none',
    timeout: 120_000,
    attempts: 1,
    backoffMs: 2_000,
    headed: false,
  };
}

/** Queues `jobs` row jobs through rote's own queue (which also makes the claim index); seconds taken. */
async function fillQueue(url: string, jobs: number): Promise<number> {
  const queue = await JobQueue.open(url);
  const began = performance.now();
  try {
    const batch = randomUUID();
    for (let from = 0; from < jobs; from += ENQUEUE_CHUNK) {
      const chunk = Array.from({ length: Math.min(ENQUEUE_CHUNK, jobs - from) }, (_, i) => syntheticRowJob(batch, from + i + 1));
      await queue.enqueueRows(chunk);
    }
    return (performance.now() - began) / 1000;
  } finally {
    // Stopped before the claims are timed: its maintenance must not run alongside them.
    await queue.stop({ graceful: false });
  }
}

/** How PostgreSQL plans pg-boss's claim (the SELECT of its fetch), without the costs: "Limit > LockRows > Index Scan ...". */
async function claimPlan(boss: PgBoss): Promise<string> {
  const { rows } = await boss.getDb().executeSql(
    `EXPLAIN SELECT id FROM ${QUEUE_SCHEMA}.job WHERE name = $1 AND state < 'active' AND start_after < now() ORDER BY priority desc, created_on, id LIMIT 1 FOR UPDATE SKIP LOCKED`,
    [ROW_QUEUE],
  );
  return (rows as { 'QUERY PLAN': string }[])
    .map((row) => row['QUERY PLAN'])
    .filter((line) => !/^\s*(Filter|Index Cond|Sort Key|Output):/.test(line.trim()))
    .map((line) => line.replace(/->/, '').replace(/\s*\(cost=.*$/, '').trim())
    .join(' > ');
}

/** `claims` single claims, each pg-boss's own fetch of one job (what a worker's poll does), timed. */
async function timeClaims(boss: PgBoss, claims: number): Promise<number[]> {
  const timings: number[] = [];
  for (let claim = 0; claim < claims; claim++) {
    const started = performance.now();
    const jobs = await boss.fetch(ROW_QUEUE, { includeMetadata: true });
    timings.push(performance.now() - started);
    // pg-boss's fetch answers [] for an error too: an empty answer from a full queue is one.
    if (jobs.length !== 1) throw new Error(`claim benchmark: a fetch from a full queue returned ${jobs.length} jobs`);
  }
  return timings;
}

async function measureClaims(server: PostgresServer, url: string, sizes: Sizes) {
  const enqueueS = await fillQueue(url, sizes.queuedJobs);
  log(`queue: ${sizes.queuedJobs.toLocaleString('en')} jobs queued in ${round(enqueueS, 1)} s`);
  await server.query(`ANALYZE ${QUEUE_SCHEMA}.job`);
  // A pg-boss of its own, on rote's queue schema: no supervision, no clock, only fetch.
  const boss = new PgBoss({ connectionString: url, schema: QUEUE_SCHEMA, max: 2, supervise: false, schedule: false, migrate: false, application_name: 'rote-bench' });
  boss.on('error', (error) => log(`pg-boss: ${String(error)}`));
  await boss.start();
  try {
    const claims: ClaimFigures[] = [];
    await timeClaims(boss, 3); // the pool's connections opened before the clock runs
    const indexedPlan = await claimPlan(boss);
    claims.push({ index: 'rote_job_claim_idx', ...timing(await timeClaims(boss, sizes.claims)), plan: indexedPlan });
    await server.query(`DROP INDEX ${QUEUE_SCHEMA}.rote_job_claim_idx`);
    const plainPlan = await claimPlan(boss);
    claims.push({ index: 'none', ...timing(await timeClaims(boss, sizes.unindexedClaims)), plan: plainPlan });
    return { jobs: sizes.queuedJobs, enqueueS: round(enqueueS, 1), jobsPerSecond: Math.round(sizes.queuedJobs / enqueueS), claims };
  } finally {
    await boss.stop({ graceful: false, wait: true });
  }
}

// ---------------------------------------------------------------------------------------------
// 4. Rows through `rote worker` processes, and in one `rote run` process for comparison.

type RoteProcess = { child: ChildProcess; stdout(): string; output(): string; waitFor(pattern: RegExp, timeoutMs: number): Promise<void>; exited: Promise<number | null> };

/** `node dist/src/cli/main.js ...args`, its output kept. */
function startRote(args: readonly string[]): RoteProcess {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let output = '';
  const listeners = new Set<() => void>();
  const append = (text: string) => {
    output += text;
    listeners.forEach((listener) => listener());
  };
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
    append(chunk.toString('utf8'));
  });
  child.stderr!.on('data', (chunk: Buffer) => append(chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const waitFor = (pattern: RegExp, timeoutMs: number) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!pattern.test(output)) return;
        done();
        resolve();
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`no ${pattern} from rote ${args[0]} in ${timeoutMs} ms; its output:\n${output}`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        listeners.delete(check);
      };
      listeners.add(check);
      void exited.then(() => {
        if (!listeners.has(check)) return;
        done();
        reject(new Error(`rote ${args[0]} exited before ${pattern}; its output:\n${output}`));
      });
      check();
    });
  return { child, stdout: () => stdout, output: () => output, waitFor, exited };
}

/** Records the intake task once into `store` (the demo agent), as a person's first run would; its key. */
async function recordIntake(store: string, app: IntakeApp, browser: Browser): Promise<string> {
  const rote = await Rote.open({ store });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    await page.goto(app.url);
    const result = await rote.run(page, { task: INTAKE_TASK, params: DEMO_PATIENTS[0]!, schema: { reminders: 'boolean' }, agent: demoAgent(page) });
    if (result.status !== 'agent') throw new Error(`the recording into ${store} ended ${result.status}: ${result.error ?? ''}`);
    return result.taskKey;
  } finally {
    await context.close();
    await rote.close();
  }
}

/** Where the CPU went in a batch: the sampled trees, and this process (the app) from Node's own count. */
function cpuFigures(window: CpuWindow, appUsage: NodeJS.CpuUsage): CpuFigures {
  const { workers = 0, postgres = 0, roteRun = 0 } = window.groups;
  const appS = (appUsage.user + appUsage.system) / 1e6;
  return {
    busyShare: round(window.busyShare, 2),
    saturatedShare: round(window.saturatedShare, 2),
    machineS: round(window.machineS, 1),
    workersS: round(workers, 1),
    postgresS: round(postgres, 1),
    roteRunS: round(roteRun, 1),
    appS: round(appS, 1),
    otherS: round(Math.max(0, window.machineS - workers - postgres - roteRun - appS), 1),
  };
}

/** The postmaster's pid: its backends are its children, so its tree is all of the server's CPU. */
function postmasterPid(server: PostgresServer): number {
  return Number(readFileSync(join(server.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
}

type BatchSetup = { setup: string; workers: number; concurrency: number; store: string; taskKey: string };

/**
 * One batch: `rote run --rows` from its start to its exit, with `workerPids` (already started
 * and idle) taking the rows, or none (the rows run in the `rote run` process). Every row must be
 * replayed and reach the app exactly once, with its values.
 */
async function runBatchOnce(batch: BatchSetup, app: IntakeApp, csv: string, rowCount: number, workerPids: readonly number[], postmaster: number): Promise<BatchLevel> {
  app.reset();
  // On PostgreSQL the rows go to the queue and --concurrency means nothing there: each worker takes one at a time.
  const concurrency = batch.workers === 0 ? ['--concurrency', String(batch.concurrency)] : [];
  let runPid: number | undefined;
  const cpu = sampleCpu({ workers: () => workerPids, postgres: () => [postmaster], roteRun: () => (runPid === undefined ? [] : [runPid]) });
  const appBefore = process.cpuUsage();
  const started = performance.now();
  const run = startRote(['run', batch.taskKey, '--url', app.url, '--rows', csv, ...concurrency, '--json', '--store', batch.store]);
  runPid = run.child.pid;
  const code = await run.exited;
  const wallMs = performance.now() - started;
  const used = cpuFigures(cpu.stop(), process.cpuUsage(appBefore));
  if (code !== 0) throw new Error(`${batch.setup}: rote run exited ${code}:\n${run.output()}`);
  const summary = JSON.parse(run.stdout().trim().split('\n').at(-1)!) as JobSummary;
  const rows = patients(rowCount);
  const right = rows.filter((patient) => app.submissions.filter((submission) => submission.fields.last_name === patient.lastName).length === 1 && serverProblems(app, [patient]).length === 0);
  if (summary.replayed !== rowCount || right.length !== rowCount) {
    throw new Error(`${batch.setup}: ${summary.replayed}/${rowCount} replayed, ${right.length} on the app exactly once with their values; ${serverProblems(app, rows).slice(0, 3).join('; ')}`);
  }
  return {
    setup: batch.setup,
    workers: batch.workers,
    concurrency: batch.concurrency,
    rows: rowCount,
    replayed: summary.replayed,
    rightOnServer: right.length,
    wallMs: Math.round(wallMs),
    runsPerMinute: round((rowCount / wallMs) * 60_000, 1),
    cpu: used,
  };
}

/** Starts `count` workers and waits until each has said it takes jobs. */
async function startWorkers(store: string, count: number): Promise<RoteProcess[]> {
  const workers = Array.from({ length: count }, () => startRote(['worker', '--store', store, '--concurrency', '1']));
  try {
    await Promise.all(workers.map((worker) => worker.waitFor(/rote worker \(process \d+\)/, 120_000)));
  } catch (error) {
    await stopWorkers(workers);
    throw error;
  }
  return workers;
}

/** SIGTERM: a clean stop (they are idle by now); waits for each to exit. */
async function stopWorkers(workers: readonly RoteProcess[]): Promise<void> {
  for (const worker of workers) if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGTERM');
  const codes = await Promise.all(workers.map((worker) => worker.exited));
  if (codes.some((code) => code !== 0)) log(`workers exited ${codes.join(', ')} on SIGTERM`);
}

async function measureBatches(server: PostgresServer, sizes: Sizes): Promise<BatchLevel[]> {
  const app = await startIntakeApp();
  const dir = mkdtempSync(join(tmpdir(), 'rote-pgscale-'));
  const browser = await launchBrowser();
  try {
    const pgStore = await server.createDatabase('workers');
    const sqliteStore = join(dir, 'rote.db');
    const pgTask = await recordIntake(pgStore, app, browser);
    const sqliteTask = await recordIntake(sqliteStore, app, browser);
    await browser.close();
    const csv = join(dir, 'patients.csv');
    writeFileSync(csv, patientsCsv(patients(sizes.rows)));
    const postmaster = postmasterPid(server);
    const levels: BatchLevel[] = [];
    for (const count of sizes.workerLevels) {
      const workers = await startWorkers(pgStore, count);
      try {
        const pids = workers.map((worker) => worker.child.pid!);
        levels.push(await runBatchOnce({ setup: `${count} worker${count === 1 ? '' : 's'} (PostgreSQL)`, workers: count, concurrency: 1, store: pgStore, taskKey: pgTask }, app, csv, sizes.rows, pids, postmaster));
      } finally {
        await stopWorkers(workers);
      }
      log(`batch: ${describeLevel(levels.at(-1)!)}`);
    }
    // The baseline: the same rows in the `rote run` process itself, on a SQLite file.
    for (const concurrency of sizes.inProcessLevels) {
      levels.push(await runBatchOnce({ setup: `rote run --concurrency ${concurrency} (SQLite)`, workers: 0, concurrency, store: sqliteStore, taskKey: sqliteTask }, app, csv, sizes.rows, [], postmaster));
      log(`batch: ${describeLevel(levels.at(-1)!)}`);
    }
    return levels;
  } finally {
    await browser.close().catch(() => {});
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function describeLevel(level: BatchLevel): string {
  return `${level.setup}: ${level.rows} rows in ${round(level.wallMs / 1000, 1)} s, ${level.runsPerMinute} runs/min, machine ${Math.round(level.cpu.busyShare * 100)} % busy`;
}

// ---------------------------------------------------------------------------------------------

function printTable(results: PostgresScaleResults, print: (line: string) => void): void {
  const { lookup, commits, queue, batches, machine } = results;
  const row = (cells: readonly (string | number)[], widths: readonly number[]) => cells.map((cell, i) => (i === 0 ? String(cell).padEnd(widths[i]!) : String(cell).padStart(widths[i]!))).join('  ');
  print(`PostgreSQL at scale (${results.quick ? 'quick' : 'full'} run, ${results.wallS} s; ${machine.cpus} × ${machine.cpuModel}, load average ${machine.loadAvgAtStart.join(' ')} at start)`);
  print('');
  print(`Cache lookup: task + candidates after the start and after the first node, ${lookup.postgres.lookups.toLocaleString('en')} random picks`);
  const lw = [12, 14, 10, 8, 8, 10];
  print(row(['store', 'trajectories', 'nodes', 'p50 ms', 'p99 ms', 'size MB'], lw));
  for (const [name, figures] of [['PostgreSQL', lookup.postgres], ['SQLite', lookup.sqlite]] as const) {
    print(row([name, figures.trajectories.toLocaleString('en'), figures.nodes.toLocaleString('en'), figures.p50Ms, figures.p99Ms, Math.round(figures.fileBytes / 2 ** 20)], lw));
  }
  print(`  (PostgreSQL filled in ${lookup.postgres.fillS} s through importTrajectories; p50 ratio PostgreSQL/SQLite ${round(lookup.postgres.p50Ms / lookup.sqlite.p50Ms, 1)}×)`);
  print('');
  print(`Run commit on PostgreSQL (beginRun + commitRun: ${BRANCH_NODES} new nodes, 1 crop, 1 node stat, ${BRANCH_NODES} steps), ${lookup.postgres.trajectories.toLocaleString('en')} trajectories stored`);
  const cw = [12, 8, 8, 8, 10];
  print(row(['in flight', 'commits', 'p50 ms', 'p99 ms', 'commits/s'], cw));
  for (const figures of commits) print(row([figures.inFlight, figures.count, figures.p50Ms, figures.p99Ms, figures.commitsPerSecond], cw));
  print('');
  print(`Claim one job (pg-boss fetch) from a queue of ${queue.jobs.toLocaleString('en')} (queued in ${queue.enqueueS} s, ${queue.jobsPerSecond.toLocaleString('en')} jobs/s)`);
  const qw = [20, 7, 8, 8];
  print(row(['index', 'claims', 'p50 ms', 'p99 ms', 'plan'], [...qw, 0]));
  for (const figures of queue.claims) print(`${row([figures.index, figures.count, figures.p50Ms, figures.p99Ms], qw)}  ${figures.plan}`);
  print('');
  print(`Rows of the intake demo, every one replayed (wall time of rote run --rows, start to exit); CPU seconds over the batch`);
  const bw = [34, 5, 7, 9, 6, 6, 8, 8, 8, 5, 6];
  print(row(['setup', 'rows', 'wall s', 'runs/min', 'busy', 'sat.', 'workers', 'postgres', 'rote run', 'bench', 'other'], bw));
  for (const level of batches) {
    const cpu = level.cpu;
    print(row([level.setup, level.rows, round(level.wallMs / 1000, 1), level.runsPerMinute, `${Math.round(cpu.busyShare * 100)}%`, `${Math.round(cpu.saturatedShare * 100)}%`, cpu.workersS, cpu.postgresS, cpu.roteRunS, cpu.appS, cpu.otherS], bw));
  }
  print(`  (busy: the machine's mean busy share over the batch, all ${machine.cpus} cores; sat.: share of 200 ms samples with every core ≥ 95 % busy; workers: rote worker processes and their Chromium; rote run: with its Chromium when the rows run in it; bench: the intake app and the sampling; other: CPU not ours, e.g. other work on the machine)`);
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  for (const arg of argv) if (arg !== '--quick' && arg !== '--json') throw new Error(`bench:postgres: unknown option ${JSON.stringify(arg)} (expected --quick, --json)`);
  const quick = argv.includes('--quick');
  const sizes = quick ? QUICK : FULL;
  const began = performance.now();
  const loadAvgAtStart = loadavg().map((value) => round(value, 2));
  log(`bench:postgres (${quick ? 'quick' : 'full'}); load average ${loadAvgAtStart.join(' ')}`);

  log(`sqlite: cache lookup with ${sizes.trajectories.toLocaleString('en')} trajectories`);
  const sqlite = await measureLookup(sizes.trajectories, sizes.steps, sizes.lookups);
  const server = await startPostgres({ log });
  let results: PostgresScaleResults;
  try {
    const store = await openStore(server.url);
    const extra: Store[] = [];
    let postgres: LookupFigures & { fillS: number };
    let commits: CommitFigures[];
    try {
      const measured = await measurePostgresLookup(server, store, sizes);
      postgres = measured.figures;
      log(`lookup: PostgreSQL p50 ${postgres.p50Ms} ms p99 ${postgres.p99Ms} ms; SQLite p50 ${sqlite.p50Ms} ms p99 ${sqlite.p99Ms} ms`);
      const single = await measureCommits([store], measured.stored, sizes.commits);
      for (let i = 1; i < COMMITS_IN_FLIGHT; i++) extra.push(await openStore(server.url));
      const parallel = await measureCommits([store, ...extra], measured.stored, sizes.commits);
      commits = [single, parallel];
      log(`commits: 1 in flight p50 ${single.p50Ms} ms p99 ${single.p99Ms} ms; ${COMMITS_IN_FLIGHT} in flight p50 ${parallel.p50Ms} ms p99 ${parallel.p99Ms} ms, ${parallel.commitsPerSecond}/s`);
    } finally {
      for (const opened of [store, ...extra]) await opened.close();
    }
    const queue = await measureClaims(server, server.url, sizes);
    log(`claims: ${queue.claims.map((claim) => `${claim.index} p50 ${claim.p50Ms} ms p99 ${claim.p99Ms} ms`).join('; ')}`);
    const batches = await measureBatches(server, sizes);
    results = {
      measuredAt: new Date().toISOString(),
      machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? 'unknown', memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version, platform: `${process.platform} ${process.arch}`, loadAvgAtStart },
      command: `npm run bench:postgres --${quick ? ' --quick' : ''}`,
      quick,
      wallS: Math.round((performance.now() - began) / 1000),
      lookup: { postgres, sqlite },
      commits,
      queue,
      batches,
    };
  } finally {
    await server.stop();
  }
  // npm runs scripts from the package root.
  const out = join(process.cwd(), 'bench', 'results');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'postgres-latest.json'), `${JSON.stringify(results, null, 2)}\n`);
  printTable(results, (line) => process.stdout.write(`${line}\n`));
  if (argv.includes('--json')) process.stdout.write(`${JSON.stringify(results)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});

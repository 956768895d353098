// Rows through `rote worker` processes, and in one `rote run` process for comparison.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright';
import { launchBrowser } from '../../src/browser/launch.js';
import { startIntakeApp, type IntakeApp } from '../../src/demo/app/server.js';
import { demoAgent } from '../../src/demo/demoAgent.js';
import { DEMO_PATIENTS, INTAKE_TASK } from '../../src/demo/patients.js';
import { Rote } from '../../src/rote.js';
import type { JobSummary } from '../../src/scheduler/jobSummary.js';
import { patients, patientsCsv, serverProblems } from '../../e2e/support/unattended.js';
import type { PostgresServer } from '../../e2e/support/postgresServer.js';
import { sampleCpu, type CpuWindow } from '../processCpu.js';
import { round } from '../stats.js';
import { log } from './log.js';
import { describeLevel, type BatchLevel, type CpuFigures } from './results.js';
import { startRote, type RoteProcess } from './roteProcess.js';
import type { Sizes } from './sizes.js';

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

export async function measureBatches(server: PostgresServer, sizes: Sizes): Promise<BatchLevel[]> {
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

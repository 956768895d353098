import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import pg from 'pg';
import { startIntakeApp, type IntakeApp } from '../src/demo/app/server.js';
import { demoAgent } from '../src/demo/demoAgent.js';
import { DEMO_PATIENTS, INTAKE_TASK } from '../src/demo/patients.js';
import { Rote } from '../src/rote.js';
import type { JobSummary } from '../src/scheduler/jobSummary.js';
import { childPids, startCli, type RunningCli } from './support/cliProcess.js';
import { startHoldingProxy, type HoldingProxy } from './support/holdingProxy.js';
import { pgTest } from './support/postgresTest.js';
import { patients, patientsCsv, serverProblems } from './support/unattended.js';

/**
 * Workers on a PostgreSQL store, driven as a user drives them: `rote worker` processes take the
 * rows `rote run --rows` queues, one of them is SIGKILLed with a row under way, and its row is
 * finished by another worker once its job expires. Checked on the server (the app that received
 * the submissions) and in the store.
 */

const test = pgTest.extend<{ app: IntakeApp; front: HoldingProxy; dir: string }>({
  app: async ({}, use) => {
    const app = await startIntakeApp();
    await use(app);
    await app.close();
  },
  front: async ({ app }, use) => {
    const front = await startHoldingProxy(app.origin);
    await use(front);
    await front.close();
  },
  dir: async ({}, use) => {
    const dir = mkdtempSync(join(tmpdir(), 'rote-workers-'));
    await use(dir);
    rmSync(dir, { recursive: true, force: true });
  },
});

const lastLine = (text: string) => text.trim().split('\n').at(-1)!;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function startWorkers(store: string, count: number): Promise<RunningCli[]> {
  const workers = Array.from({ length: count }, () => startCli(['worker', '--store', store, '--concurrency', '1']));
  await Promise.all(workers.map((worker) => worker.waitFor(/rote worker \(process \d+\)/, 60_000)));
  return workers;
}

async function stopWorkers(workers: readonly RunningCli[]): Promise<(number | null)[]> {
  for (const worker of workers) if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGTERM');
  return Promise.all(workers.map((worker) => worker.exited()));
}

test('12 rows on 3 workers: each submitted once, with its values; a worker SIGKILLed mid-row and its row finished by another', async ({ app, front, pgStore, browser, dir }) => {
  test.setTimeout(420_000);
  const url = `${front.origin}/intake`;
  // The task, recorded once into the shared store (the demo agent).
  const rote = await Rote.open({ store: pgStore });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(url);
  const recorded = await rote.run(page, { task: INTAKE_TASK, params: DEMO_PATIENTS[0]!, schema: { reminders: 'boolean' }, agent: demoAgent(page) });
  await context.close();
  await rote.close();
  expect(recorded.status).toBe('agent');
  app.reset();

  // Twelve rows: four a worker on average, enough that the two left go on taking rows while the
  // killed one's job waits to expire (more rows only cost CPU the other tests need).
  const rows = patients(12);
  const csv = join(dir, 'patients.csv');
  writeFileSync(csv, patientsCsv(rows));
  const workers = await startWorkers(pgStore, 3);
  const killedRow = rows[6]!;
  const held = front.holdNext((body) => new URLSearchParams(body).get('last_name') === killedRow.lastName);
  // A deadline short enough that the killed worker's job expires (deadline + 60 s: 2 minutes)
  // well within the test, and long enough that no replay meets it on a busy machine (3 Chromiums
  // and the other test's browser on 2 cores), which would retry a row and change what is counted.
  const run = startCli(['run', recorded.taskKey, '--url', url, '--rows', csv, '--timeout', '60000', '--json', '--store', pgStore]);
  let killedPid: number;
  const db = new pg.Client({ connectionString: pgStore });
  await db.connect();
  try {
    await held;
    // The worker whose run is on row 7 now: its run's record names its process.
    const running = await db.query<{ pid: number }>(
      `SELECT r.pid FROM runs r JOIN rote_queue.job j ON r.job_id = j.id::text WHERE (j.data->>'row')::int = 7 AND r.status = 'running'`,
    );
    expect(running.rows).toHaveLength(1);
    killedPid = running.rows[0]!.pid;
    const killed = workers.find((worker) => worker.child.pid === killedPid);
    expect(killed, `the run's pid ${killedPid} is one of the workers`).toBeDefined();
    const browserPids = (await childPids(killedPid)).map((child) => child.pid);
    expect(browserPids.length).toBeGreaterThan(0);
    killed!.child.kill('SIGKILL');
    // Its browser goes with it (its pipe to the worker closes): no orphan is left holding the post.
    await expect.poll(() => browserPids.filter(isAlive), { timeout: 15_000 }).toEqual([]);

    const code = await run.exited();
    expect(code, run.output).toBe(0);
    const summary = JSON.parse(lastLine(run.stdout)) as JobSummary;
    expect(summary).toMatchObject({ rows: 12, succeeded: 12, replayed: 12, failed: 0, agentCalls: 0 });

    // On the server: every row once, with its own values; the held post never reached it.
    expect(serverProblems(app, rows)).toEqual([]);
    expect(app.submissions).toHaveLength(12);
    for (const patient of rows) expect(app.submissions.filter((submission) => submission.fields.last_name === patient.lastName), patient.lastName).toHaveLength(1);

    // In the store: one run per row, except row 7, whose first run is recorded interrupted and whose second, by another worker, replayed.
    const runs = await db.query<{ row: number; status: string; pid: number; error: string | null }>(
      `SELECT (j.data->>'row')::int AS row, r.status, r.pid, r.error FROM runs r JOIN rote_queue.job j ON r.job_id = j.id::text ORDER BY r.started_at`,
    );
    const byRow = new Map<number, typeof runs.rows>();
    for (const run of runs.rows) byRow.set(run.row, [...(byRow.get(run.row) ?? []), run]);
    expect(byRow.size).toBe(12);
    for (const [row, list] of byRow) {
      if (row === 7) continue;
      expect(list.map((run) => run.status), `row ${row}`).toEqual(['replayed']);
    }
    const retried = byRow.get(7)!;
    expect(retried.map((run) => run.status)).toEqual(['interrupted', 'replayed']);
    expect(retried[0]!.pid).toBe(killedPid);
    expect(retried[0]!.error).toContain('stopped before the run ended');
    expect(retried[1]!.pid).not.toBe(killedPid);
    // The batch's summary lists every attempt's run, the interrupted one too, for its report.
    expect(summary.runIds).toHaveLength(13);
  } finally {
    await db.end();
    const codes = await stopWorkers(workers);
    // The two left stop cleanly on SIGTERM.
    expect(codes.filter((code) => code === 0)).toHaveLength(2);
  }
});

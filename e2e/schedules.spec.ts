import { expect } from '@playwright/test';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import { INTAKE_TASK } from '../src/demo/patients.js';
import type { JobSummary } from '../src/scheduler/jobSummary.js';
import type { SlotRow } from '../src/store/scheduleStore.js';
import { cli, startCli } from './support/cliProcess.js';
import { patients, patientsCsv, readStore, serverProblems, test } from './support/unattended.js';

/**
 * Schedules and the daemon, driven as child processes: a slot by the second fires and is
 * recorded, one that comes while the last still runs is skipped, slots missed while no daemon ran
 * are caught up once, SIGTERM stops cleanly with the run recorded interrupted and the store
 * intact, a failure reaches a webhook, and bad schedules are refused.
 */

const slotsOf = (store: string, name: string): Promise<SlotRow[]> =>
  readStore(store, async (s) => {
    const row = await s.schedules.byName(name);
    return row ? s.schedules.slots(row.id, 200) : [];
  });

test('a schedule by the second fires and is recorded; a slot that comes while the last still runs is skipped', async ({ app, recorded, file }) => {
  const rows = patients(3);
  const csv = file('rows.csv', patientsCsv(rows));
  const reportDir = join(dirname(csv), 'intake-report');
  const added = await cli(['schedule', 'add', 'intake', INTAKE_TASK, '--cron', '*/2 * * * * *', '--url', app.url, '--rows', csv, '--report', reportDir, '--store', recorded.store]);
  expect(added.code, added.stderr).toBe(0);
  expect(added.stdout).toMatch(/^Added schedule "intake": "Register patient \{\{firstName\}\} \{\{lastName\}\} in the intake form" \(3 rows\) at \*\/2 \* \* \* \* \* \(UTC\), next /);
  const daemon = startCli(['daemon', '--store', recorded.store]);
  try {
    await daemon.waitFor(/intake: slot \S+ succeeded \(3 rows: 3 replayed/, 90_000);
    await daemon.waitFor(/intake: slot \S+ skipped: the slot before it was still running/, 30_000);
    // A second daemon on the same store refuses, naming the one that holds it.
    const second = await cli(['daemon', '--store', recorded.store]);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`another daemon holds the store ${recorded.store}: process ${daemon.child.pid}`);
  } finally {
    daemon.child.kill('SIGTERM');
  }
  expect(await daemon.exited()).toBe(0);
  const slots = await slotsOf(recorded.store, 'intake');
  expect(slots.filter((slot) => slot.status === 'succeeded').length).toBeGreaterThanOrEqual(1);
  expect(slots.some((slot) => slot.status === 'skipped' && slot.reason === 'the slot before it was still running')).toBe(true);
  expect(serverProblems(app, rows)).toEqual([]);
  // The daemon kept the schedule's report up to date: its slots, and a page for each run they made.
  const scheduleFiles = readdirSync(join(reportDir, 'schedules'));
  expect(scheduleFiles).toHaveLength(1);
  const schedulePage = readFileSync(join(reportDir, 'schedules', scheduleFiles[0]!), 'utf8');
  expect(schedulePage).toContain('Schedule intake');
  expect(schedulePage).toContain('skipped');
  const slotRuns = slots.flatMap((slot) => (slot.summary as JobSummary | null)?.runIds ?? []);
  expect(slotRuns.length).toBeGreaterThanOrEqual(3);
  const reported = readdirSync(join(reportDir, 'runs')).map((name) => name.replace(/\.html$/, ''));
  // Written after each slot: the runs of every slot but one still under way at the stop are in it.
  expect(reported.length).toBeGreaterThanOrEqual(3);
  expect(reported.every((id) => slotRuns.includes(id))).toBe(true);
  const listed = await cli(['schedule', 'ls', '--store', recorded.store]);
  expect(listed.stdout).toMatch(/intake\s+\*\/2 \* \* \* \* \*\s+UTC/);
});

test('slots missed while no daemon ran are caught up once after a restart, the rest recorded as missed', async ({ app, recorded, file }) => {
  const csv = file('one.csv', patientsCsv(patients(1)));
  expect((await cli(['schedule', 'add', 'quick', INTAKE_TASK, '--cron', '*/2 * * * * *', '--url', app.url, '--rows', csv, '--store', recorded.store])).code).toBe(0);
  const first = startCli(['daemon', '--store', recorded.store]);
  await first.waitFor(/quick: slot \S+ succeeded/, 90_000);
  first.child.kill('SIGTERM');
  expect(await first.exited()).toBe(0);
  const stoppedAt = Date.now();
  // Down long enough for three or more slots to fall.
  await new Promise((resolve) => setTimeout(resolve, 7_000));
  const second = startCli(['daemon', '--store', recorded.store, '--catch-up', 'latest']);
  // When the daemon itself started (its first line): slots before it fell while none ran.
  let fell: string;
  try {
    // The daemon says which slots fell while none ran: the window is its own, not the time this
    // test saw it start (a slot may fall between the two, and is then a due slot like any other).
    fell = await second.waitFor(/quick: \d+ slots from \S+ to \S+ fell while no daemon ran \(catch-up latest\)/, 60_000);
    await second.waitFor(/quick: slot \S+ succeeded/, 60_000);
  } finally {
    second.child.kill('SIGTERM');
  }
  expect(await second.exited()).toBe(0);
  const slots = await slotsOf(recorded.store, 'quick');
  // The missed stretch is every slot that fell but the latest, which the daemon runs: the next
  // slot of the */2 cron after the stretch's end.
  const [, from, to] = /from (\S+) to (\S+) fell/.exec(fell)!;
  const [firstFell, latest] = [Date.parse(from!), Date.parse(to!) + 2_000];
  expect(firstFell).toBeGreaterThan(stoppedAt - 2_000);
  const whileDown = slots.filter((slot) => slot.slotAt >= firstFell && slot.slotAt <= latest);
  expect(whileDown.filter((slot) => slot.status === 'succeeded').map((slot) => slot.slotAt)).toEqual([latest]);
  expect(whileDown.filter((slot) => slot.status === 'missed').map((slot) => slot.slotAt)).toEqual([Date.parse(to!)]);
});

test('SIGTERM mid-run: the daemon exits 0, the run under way is recorded interrupted, the store passes integrity_check', async ({ app, recorded, file }) => {
  const rows = patients(6);
  const csv = file('rows.csv', patientsCsv(rows));
  expect((await cli(['schedule', 'add', 'long', INTAKE_TASK, '--cron', '*/2 * * * * *', '--url', app.url, '--rows', csv, '--concurrency', '2', '--store', recorded.store])).code).toBe(0);
  const daemon = startCli(['daemon', '--store', recorded.store]);
  await daemon.waitFor(/long: slot \S+ started/, 60_000);
  // A run is under way with most of its steps ahead: it began under a second ago (a replay of the
  // form takes a few seconds) and its row is not submitted. SIGTERM then lands mid-run whatever the
  // machine's speed; after the first submission alone, both runs of a pair could be past their last step.
  const underWay = () =>
    readStore(recorded.store, async (store) =>
      (await store.listRuns(20)).some((run) => run.status === 'running' && Date.now() - run.startedAt < 800 && !app.submissions.some((submission) => submission.fields.last_name === run.params?.lastName)),
    );
  await expect.poll(underWay, { timeout: 60_000, intervals: [20] }).toBe(true);
  daemon.child.kill('SIGTERM');
  expect(await daemon.exited(), daemon.output).toBe(0);
  expect(daemon.output).toContain('stopping (SIGTERM)');
  expect(daemon.output).toMatch(/long: slot \S+ interrupted/);
  const slot = (await slotsOf(recorded.store, 'long')).find((candidate) => candidate.status !== 'skipped')!;
  expect(slot.status).toBe('interrupted');
  const runs = await readStore(recorded.store, (store) => store.listRuns(100));
  expect(runs.some((run) => run.status === 'interrupted')).toBe(true);
  expect(runs.some((run) => run.status === 'running')).toBe(false);
  const db = new Database(recorded.store, { readonly: true });
  try {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  } finally {
    db.close();
  }
  // What was submitted is right, and nothing half-done was taken for a success.
  expect(serverProblems(app, rows.filter((row) => app.submissions.some((submission) => submission.fields.first_name === row.firstName)))).toEqual([]);
});

test("a slot that does not end well posts its summary to the failure webhook: the runs, their statuses, the first divergence's step and reason", async ({ app, recorded, file }) => {
  const received: unknown[] = [];
  const hook = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      received.push(JSON.parse(body));
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
  const hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/rote-failed`;
  try {
    const csv = file('two.csv', patientsCsv(patients(2)));
    const added = await cli(['schedule', 'add', 'strict', INTAKE_TASK, '--cron', '0 3 * * *', '--url', app.url, '--rows', csv, '--mode', 'replay-only', '--on-failure', hookUrl, '--store', recorded.store]);
    expect(added.code, added.stderr).toBe(0);
    // The form now opens under a session popup: replay-only stops before the first step.
    app.setPerturbations({ sessionPopup: true });
    const slot = await cli(['schedule', 'run-now', 'strict', '--json', '--store', recorded.store]);
    expect(slot.code).toBe(1);
    expect(JSON.parse(slot.stdout.trim().split('\n').at(-1)!)).toMatchObject({ schedule: 'strict', status: 'failed', notified: 'the failure notice was delivered' });
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({
      schedule: 'strict',
      slot: { status: 'failed' },
      runs: [{ row: 1, status: 'diverged' }, { row: 2, status: 'diverged' }],
      firstDivergence: { row: 1, step: 1 },
      totals: { rows: 2, succeeded: 0, failed: 2 },
    });
    expect((received[0] as { firstDivergence: { reason: string } }).firstDivergence.reason).toBeTruthy();
    expect(app.submissions).toHaveLength(0);
  } finally {
    hook.close();
  }
});

test('bad schedules are refused before anything is stored: an invalid cron, an unknown time zone, an unknown task, a name taken', async ({ app, recorded }) => {
  const add = (name: string, ...args: string[]) => cli(['schedule', 'add', name, ...args, '--url', app.url, '--store', recorded.store]);
  const cases = [
    { result: await add('a', INTAKE_TASK, '--cron', '61 * * * *', '--param', 'x=1'), message: 'cron "61 * * * *" is not valid: CronPattern: Invalid value for minute: 61' },
    { result: await add('b', INTAKE_TASK, '--cron', '0 2 * * *', '--tz', 'Mars/Olympus'), message: '--tz "Mars/Olympus" is not a time zone' },
    { result: await add('c', 'Register nobody', '--cron', '0 2 * * *'), message: 'no task matches "Register nobody"' },
  ];
  expect((await add('taken', INTAKE_TASK, '--cron', '0 2 * * *', '--param', 'firstName=Ann', '--param', 'lastName=Lee')).code).toBe(2);
  for (const { result, message } of cases) {
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  }
  expect(await readStore(recorded.store, (store) => store.schedules.list())).toHaveLength(0);
  // Once stored, the name is taken.
  const rows = patients(1)[0]!;
  const params = Object.entries(rows).flatMap(([name, value]) => ['--param', `${name}=${String(value)}`]);
  expect((await add('nightly', INTAKE_TASK, '--cron', '0 2 * * *', ...params)).code).toBe(0);
  const again = await add('nightly', INTAKE_TASK, '--cron', '0 3 * * *', ...params);
  expect(again.code).toBe(2);
  expect(again.stderr).toContain('rote schedule add "nightly": a schedule of that name exists');
});

test('rote demo --schedule --json: six patients by the daemon, every row submitted right from the cache', async ({ dir }) => {
  const result = await cli(['demo', '--schedule', '--json', '--store', `${dir}/demo.db`]);
  expect(result.code, result.stderr).toBe(0);
  const lines = result.stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  const summary = JSON.parse(lines[0]!) as { slot: { status: string }; summary: { rows: number; replayed: number; agentCalls: number }; checks: { ok: boolean }[] };
  expect(summary.slot.status).toBe('succeeded');
  expect(summary.summary).toMatchObject({ rows: 6, replayed: 6, agentCalls: 0 });
  expect(summary.checks.map((check) => check.ok)).toEqual([true, true, true, true, true, true]);
});

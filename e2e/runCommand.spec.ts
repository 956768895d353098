import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect } from '@playwright/test';
import { DEMO_PATIENTS, INTAKE_TASK } from '../src/demo/patients.js';
import type { JobSummary } from '../src/scheduler/jobSummary.js';
import { childPids, cli, startCli } from './support/cliProcess.js';
import { patients, patientsCsv, readStore, serverProblems, test } from './support/unattended.js';

/**
 * `rote run` driven as a user drives it, a child process: parameters, exit codes, a CSV batch
 * checked on the server, bad input refused before anything runs, a retry after a browser crash.
 */

const lastLine = (text: string) => text.trim().split('\n').at(-1)!;

test('rote run with parameters: 0 when replayed, 1 when it diverges, 2 for a usage error', async ({ app, recorded }) => {
  const patient = DEMO_PATIENTS[1]!;
  const params = Object.entries(patient).flatMap(([name, value]) => ['--param', `${name}=${String(value)}`]);
  const ok = await cli(['run', INTAKE_TASK, '--url', app.url, ...params, '--store', recorded.store]);
  expect(ok.code, ok.stderr).toBe(0);
  expect(ok.stdout).toContain('1 row: 1 replayed, 0 handed over, 0 failed; 0 agent calls');
  expect(serverProblems(app, [patient])).toEqual([]);

  // A session popup covers the form: with no agent the run ends diverged, and the JSON says where.
  app.setPerturbations({ sessionPopup: true });
  const diverged = await cli(['run', recorded.taskKey.slice(0, 10), '--url', app.url, ...params, '--json', '--store', recorded.store]);
  expect(diverged.code).toBe(1);
  const summary = JSON.parse(lastLine(diverged.stdout)) as JobSummary;
  expect(summary).toMatchObject({ rows: 1, succeeded: 0, failed: 1 });
  expect(summary.results[0]).toMatchObject({ status: 'diverged', divergence: { step: 1 } });
  expect(diverged.stdout.trim().split('\n')).toHaveLength(1);

  const usage = await cli(['run', INTAKE_TASK, '--url', app.url, '--concurrency', '0', '--store', recorded.store]);
  expect(usage.code).toBe(2);
  expect(usage.stderr).toContain("option '--concurrency <n>' argument '0' is invalid");
});

test('a CSV batch of 6 rows, 3 at once: every row submitted with its values, the summary parsed from --json', async ({ app, recorded, file }) => {
  const rows = patients(6);
  const csv = file('patients.csv', patientsCsv(rows));
  const reportDir = join(dirname(csv), 'report');
  const result = await cli(['run', INTAKE_TASK, '--url', app.url, '--rows', csv, '--concurrency', '3', '--json', '--report', reportDir, '--store', recorded.store]);
  expect(result.code, result.stderr).toBe(0);
  const summary = JSON.parse(lastLine(result.stdout)) as JobSummary;
  expect(summary).toMatchObject({ rows: 6, succeeded: 6, replayed: 6, failed: 0, agentCalls: 0 });
  // The batch's report: its 6 runs and nothing else; rote stats reads the same totals.
  expect(readdirSync(join(reportDir, 'runs')).sort()).toEqual(summary.runIds.map((id) => `${id}.html`).sort());
  expect(readFileSync(join(reportDir, 'index.html'), 'utf8')).toContain('6 of 6 runs');
  const stats = await cli(['stats', '--json', '--run', ...summary.runIds.flatMap((id, i) => (i === 0 ? [id.slice(0, 8)] : ['--run', id])), '--store', recorded.store]);
  expect(stats.code, stats.stderr).toBe(0);
  expect(JSON.parse(stats.stdout)).toMatchObject({ runs: 6, replayedShare: 1, agentCalls: 0, byStatus: { replayed: 6 } });
  expect(summary.results.map((row) => row.row)).toEqual(rows.map((_, i) => i + 1));
  expect(serverProblems(app, rows)).toEqual([]);
  expect(app.submissions).toHaveLength(6);
  // Every run is in the store's run log.
  const runIds = new Set(summary.results.map((row) => row.runId));
  expect(await readStore(recorded.store, async (store) => (await store.listRuns(100)).filter((run) => runIds.has(run.id) && run.status === 'replayed'))).toHaveLength(6);
});

test('bad input is one error naming the problem, exit 2, and nothing runs', async ({ app, recorded, file }) => {
  const rows = patients(8);
  const good = patientsCsv(rows).split('\n');
  const cases: { name: string; args: string[]; env?: NodeJS.ProcessEnv; message: RegExp }[] = [
    { name: 'an unknown task', args: ['run', 'Register nobody', '--url', app.url], message: /no task matches "Register nobody"; expected a task key, a unique key prefix or the exact template/ },
    { name: 'a missing column', args: ['run', INTAKE_TASK, '--url', app.url, '--rows', file('missing.csv', good.map((line) => line.split(',').slice(0, -1).join(',')).join('\n'))], message: /missing column "notes": the recorded task types or chooses \{\{notes\}\}/ },
    { name: 'an unknown column', args: ['run', INTAKE_TASK, '--url', app.url, '--rows', file('unknown.csv', good.map((line, i) => (line ? `${line},${i === 0 ? 'shoeSize' : '42'}` : line)).join('\n'))], message: /unknown column "shoeSize"/ },
    {
      // The recording declared reminders a boolean; the task keeps that type for every later run.
      name: 'a value of the wrong type in row 7',
      args: ['run', INTAKE_TASK, '--url', app.url, '--rows', file('row7.csv', good.map((line, i) => (i === 7 ? line.replace(/,(true|false),/, ',maybe,') : line)).join('\n'))],
      message: /row 7 \(line 8\).*params\.reminders must be a boolean.*got "maybe"/,
    },
    { name: 'a report folder that holds other files', args: ['run', INTAKE_TASK, '--url', app.url, '--rows', file('ok.csv', good.join('\n')), '--report', dirname(file('keep/notes.txt', 'mine'))], message: /the report folder .*keep is not empty and holds no earlier report/ },
    { name: 'a secret whose variable is unset', args: ['run', INTAKE_TASK, '--url', app.url, '--rows', file('ok.csv', good.join('\n')), '--secret', 'notes=env:ROTE_TEST_UNSET_SECRET'], message: /secret "notes": the environment variable ROTE_TEST_UNSET_SECRET is not set/ },
  ];
  const runsBefore = await readStore(recorded.store, async (store) => (await store.listRuns(1000)).length);
  for (const { name, args, message } of cases) {
    const result = await cli([...args, '--store', recorded.store], { env: { ROTE_TEST_UNSET_SECRET: '' } });
    expect(result.code, `${name}: ${result.stderr}`).toBe(2);
    expect(result.stderr, name).toMatch(message);
    expect(result.stdout, name).toBe('');
  }
  expect(app.submissions).toHaveLength(0);
  expect(await readStore(recorded.store, async (store) => (await store.listRuns(1000)).length)).toBe(runsBefore);
});

test('a browser that crashes mid-batch is launched again and its rows retried: every row submitted', async ({ app, recorded, file }) => {
  const rows = patients(5);
  const csv = file('crash.csv', patientsCsv(rows));
  const runsBefore = await readStore(recorded.store, async (store) => (await store.listRuns(1000)).length);
  const run = startCli(['run', INTAKE_TASK, '--url', app.url, '--rows', csv, '--concurrency', '1', '--retry', '3', '--backoff', '200', '--json', '--store', recorded.store]);
  // The browser is killed while the second row's run is under way: its record is the newest and
  // still 'running'. (Row 1's run is still 'running' for a moment after its submission, while it
  // commits: a kill then would land between rows, and the browser would only be launched again.)
  await expect
    .poll(() => readStore(recorded.store, async (store) => { const runs = await store.listRuns(1000); return runs.length - runsBefore >= 2 && runs[0]!.status === 'running'; }), { timeout: 90_000, intervals: [50] })
    .toBe(true);
  const browsers = (await childPids(run.child.pid!)).filter((child) => /chrom/i.test(child.command));
  expect(browsers.length).toBeGreaterThan(0);
  for (const browser of browsers) process.kill(browser.pid, 'SIGKILL');
  expect(await run.exited(), run.output).toBe(0);
  expect(run.stdout, run.output).toMatch(/\{.*\}\s*$/);
  const summary = JSON.parse(lastLine(run.stdout)) as JobSummary;
  expect(summary).toMatchObject({ rows: 5, succeeded: 5, failed: 0 });
  expect(summary.attempts).toBeGreaterThan(5);
  expect(summary.results.some((row) => row.attempts > 1)).toBe(true);
  expect(serverProblems(app, rows)).toEqual([]);
});

test('Ctrl+C stops a batch cleanly: the run under way ends after its step as interrupted, the rest are not started, the summary says so', async ({ app, recorded, file }) => {
  const rows = patients(6);
  const csv = file('stop.csv', patientsCsv(rows));
  const run = startCli(['run', INTAKE_TASK, '--url', app.url, '--rows', csv, '--concurrency', '1', '--json', '--store', recorded.store]);
  await expect.poll(() => app.submissions.length, { timeout: 60_000 }).toBeGreaterThanOrEqual(1);
  run.child.kill('SIGINT');
  expect(await run.exited(), run.output).toBe(1);
  const summary = JSON.parse(lastLine(run.stdout)) as JobSummary;
  expect(summary.stopped).toBe(true);
  expect(summary.succeeded + summary.interrupted + summary.notStarted).toBe(6);
  expect(summary.notStarted).toBeGreaterThan(0);
  const runs = await readStore(recorded.store, (store) => store.listRuns(100));
  expect(runs.some((entry) => entry.status === 'running')).toBe(false);
  expect(runs.filter((entry) => entry.status === 'failed')).toEqual([]);
  // What was submitted is right.
  expect(serverProblems(app, rows.filter((row) => app.submissions.some((submission) => submission.fields.first_name === row.firstName)))).toEqual([]);
});

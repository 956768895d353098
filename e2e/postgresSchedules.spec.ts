import { writeFileSync } from 'node:fs';
import { expect } from '@playwright/test';
import { startIntakeApp } from '../src/demo/app/server.js';
import { openStore } from '../src/store/store.js';
import type { SlotRow } from '../src/store/scheduleStore.js';
import type { RunRow } from '../src/store/rows.js';
import { cli, startCli } from './support/cliProcess.js';
import { pgTest as test } from './support/postgresTest.js';
import { patients, patientsCsv, serverProblems } from './support/unattended.js';

/**
 * A schedule on a PostgreSQL store: pg-boss's cron, running in each of two workers, sends the
 * minute's slot once; one worker records it and queues its rows, which both workers run. The slot
 * is recorded once, each row of a slot that ran submitted by one run the store shows, and no
 * submission without a run record; a seconds-level cron is refused on this store.
 */
test('a schedule every minute on two workers: one slot a minute, recorded once, its rows submitted once each', async ({ postgres, pgStore }, testInfo) => {
  test.setTimeout(360_000);
  const app = await startIntakeApp();
  const workers = [startCli(['worker', '--store', pgStore, '--concurrency', '1']), startCli(['worker', '--store', pgStore, '--concurrency', '1'])];
  try {
    expect((await cli(['import', 'recordings/intake', '--store', pgStore])).code).toBe(0);
    const rows = patients(3);
    const csv = testInfo.outputPath('rows.csv');
    writeFileSync(csv, patientsCsv(rows));
    const seconds = await cli(['schedule', 'add', 'fast', 'recordings/intake', '--cron', '*/10 * * * * *', '--url', app.url, '--rows', csv, '--store', pgStore]);
    expect(seconds.code).toBe(2);
    expect(seconds.stderr).toContain("has a seconds field; on a PostgreSQL store slots are sent by pg-boss's cron, which fires at most once a minute");

    const added = await cli(['schedule', 'add', 'minutely', 'recordings/intake', '--cron', '* * * * *', '--url', app.url, '--rows', csv, '--store', pgStore]);
    expect(added.code, added.stderr).toBe(0);
    // As if it had been added a while ago: the minute under way is then owed, and pg-boss sends the
    // minute just past at once, so the test does not wait for the next one.
    await postgres.query(`UPDATE schedules SET updated_at = updated_at - 120000, created_at = created_at - 120000 WHERE name = 'minutely'`, new URL(pgStore).pathname.slice(1));
    await Promise.all(workers.map((worker) => worker.waitFor(/rote worker \(process \d+\)/, 60_000)));
    await Promise.race(workers.map((worker) => worker.waitFor(/minutely: slot \S+ succeeded/, 150_000)));
    const pause = await cli(['schedule', 'pause', 'minutely', '--store', pgStore]);
    expect(pause.code).toBe(0);

    // The workers stop cleanly before anything is counted: whatever a later minute started meanwhile
    // (a slot may begin before the workers see the pause, on a slow machine) has ended or been
    // recorded as stopped, and nothing can submit after the count. What is asserted is what the
    // product promises whatever the machine's speed, not how many minutes passed.
    for (const worker of workers) worker.child.kill('SIGTERM');
    expect(await Promise.all(workers.map((worker) => worker.exited()))).toEqual([0, 0]);

    const store = await openStore(pgStore);
    let slots: SlotRow[];
    let runs: RunRow[];
    try {
      const schedule = (await store.schedules.byName('minutely'))!;
      slots = await store.schedules.slots(schedule.id, 100);
      runs = await store.findRuns({});
    } finally {
      await store.close();
    }
    // Each slot recorded once: the unique slot key holds across workers (a second send of a minute is not run).
    expect(new Set(slots.map((slot) => slot.slotAt)).size).toBe(slots.length);
    for (const slot of slots) expect(slot.slotAt % 60_000).toBe(0);
    const succeeded = slots.filter((slot) => slot.status === 'succeeded');
    expect(succeeded.length).toBeGreaterThanOrEqual(1);
    expect(succeeded[0]!.summary).toMatchObject({ rows: 3, succeeded: 3 });
    expect(serverProblems(app, rows)).toEqual([]);

    const runsById = new Map(runs.map((run) => [run.id, run]));
    for (const [index, patient] of rows.entries()) {
      const submitted = app.submissions.filter((submission) => submission.fields.last_name === patient.lastName).length;
      // Each row of a slot that ran was submitted, by one run the slot's summary names.
      for (const slot of succeeded) {
        const results = (slot.summary as { results: { row: number; runId?: string; status: string }[] }).results.filter((result) => result.row === index + 1);
        expect(results, `slot ${new Date(slot.slotAt).toISOString()} row ${index + 1}`).toHaveLength(1);
        const run = runsById.get(results[0]!.runId!);
        expect(run?.status).toBe('replayed');
        expect(run?.params).toMatchObject({ lastName: patient.lastName });
      }
      expect(submitted).toBeGreaterThanOrEqual(succeeded.length);
      // No submission that the store does not show: each came from a run recorded with this row's values.
      const recorded = runs.filter((run) => run.params?.lastName === patient.lastName);
      expect(submitted, `${patient.lastName}: submissions against the runs the store holds for that row`).toBeLessThanOrEqual(recorded.length);
    }
  } finally {
    for (const worker of workers) worker.child.kill('SIGTERM');
    await Promise.all(workers.map((worker) => worker.exited()));
    await app.close();
  }
});

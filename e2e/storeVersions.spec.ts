import { copyFileSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { test, expect } from '@playwright/test';
import { startIntakeApp, type IntakeApp } from '../src/demo/app/server.js';
import { DEMO_PATIENTS, INTAKE_TASK, submissionProblems } from '../src/demo/patients.js';
import { Rote } from '../src/rote.js';

/**
 * A store from every earlier schema version (e2e/support/stores, one per shipped migration, made
 * by bench/faults/makeStoreFixtures.ts) opens with today's code: migrated in place, intact, and its
 * recorded task replays with new values.
 */
const dir = join(process.cwd(), 'e2e', 'support', 'stores');
/** The fixtures were recorded on this port (a task's key holds its start URL): see makeStoreFixtures.ts. */
const FIXTURE_PORT = 29517;
const journal = JSON.parse(readFileSync(join(process.cwd(), 'drizzle', 'meta', '_journal.json'), 'utf8')) as { entries: { idx: number }[] };

test('there is a fixture store for every shipped migration but the newest', () => {
  const versions = readdirSync(dir).filter((name) => name.endsWith('.db')).sort();
  expect(versions).toEqual(journal.entries.slice(0, -1).map((entry) => `v${String(entry.idx).padStart(4, '0')}.db`));
});

// One app on the fixed port for the whole file, so the tests take turns.
test.describe.configure({ mode: 'serial' });
let app: IntakeApp;
test.beforeAll(async () => {
  app = await startIntakeApp({ port: FIXTURE_PORT });
});
test.afterAll(async () => app.close());

for (const file of readdirSync(dir).filter((name) => name.endsWith('.db')).sort()) {
  test(`a store of schema ${file} migrates, stays intact, and replays`, async ({ page }, testInfo) => {
    app.reset();
    const path = testInfo.outputPath('store.db');
    copyFileSync(join(dir, file), path);
    const rote = await Rote.open({ store: path });
    try {
      const tasks = await rote.store.listTasks();
      expect(tasks).toHaveLength(1);
      expect(tasks[0]!.taskTemplate).toBe(INTAKE_TASK);
      const stored = await rote.store.listRuns(10);
      expect(stored).toHaveLength(1);
      // A run from before the time column (0010) shows no time; one from a store that had it keeps its own.
      if (file < 'v0010.db') expect(stored[0]!.time).toBeNull();
      else expect(stored[0]!.time).toMatchObject({ agent: expect.any(Number) });
      await page.goto(app.url);
      const patient = DEMO_PATIENTS[1]!;
      const result = await rote.run(page, { task: INTAKE_TASK, params: patient, mode: 'replay-only' });
      expect(result.status, result.error).toBe('replayed');
      expect(submissionProblems(patient, app.submissions[0])).toEqual([]);
      expect((await rote.store.findRuns({ ids: [result.runId] }))[0]!.time).toEqual(result.time);
    } finally {
      await rote.close();
    }
    const db = new Database(path, { readonly: true });
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    const applied = (db.prepare('SELECT COUNT(*) AS n FROM __drizzle_migrations').get() as { n: number }).n;
    // The end URL moved from the node's state to its own column (0008, 0009): every end has one.
    const ends = db.prepare('SELECT end_url AS endUrl, json_extract(state, \'$.endUrl\') AS inState FROM nodes WHERE ends_run = 1').all() as { endUrl: string | null; inState: string | null }[];
    expect(ends.length).toBeGreaterThan(0);
    for (const end of ends) expect(end.endUrl).toMatch(/^http:\/\/127\.0\.0\.1:29517\//);
    for (const end of ends) if (end.inState !== null) expect(end.endUrl).toBe(end.inState);
    db.close();
    expect(applied).toBe(journal.entries.length);
  });
}

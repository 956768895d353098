import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresStoreBefore, sqliteStoreBefore } from '../../e2e/support/migrationsBefore.js';
import { postgresSkipReason, startPostgres, type PostgresServer } from '../../e2e/support/postgresServer.js';
import { finished } from '../../e2e/support/storeTestRows.js';
import { PostgresStore } from './postgres/postgresStore.js';
import { SqliteStore } from './sqliteStore.js';
import type { Store } from './store.js';

/**
 * A run's time is a column of its own (SQLite 0010, PostgreSQL 0005). A store from before opens
 * with today's code: its runs read with no time, and the runs after the upgrade keep theirs.
 */
const insertOldRun = `INSERT INTO runs (id, task, mode, status, started_at, ended_at, duration_ms, pid) VALUES ('old', 'x', 'auto', 'replayed', 1, 2, 1, 1)`;
const time = { replayed: 700, checks: 200, waits: 0, agent: 0, other: 100 };

async function expectUpgraded(store: Store): Promise<void> {
  expect((await store.findRuns({ ids: ['old'] }))[0]).toMatchObject({ id: 'old', status: 'replayed', time: null });
  await store.beginRun({ id: 'new', taskId: null, task: 'x', mode: 'auto', startedAt: 3, pid: process.pid });
  await store.commitRun({ run: finished('new', { taskId: null, status: 'replayed', time }) });
  expect((await store.findRuns({ ids: ['new'] }))[0]?.time).toEqual(time);
}

describe("the run's time column, on a store from before it", () => {
  const work = mkdtempSync(join(tmpdir(), 'rote-run-time-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('SQLite: an old run has no time, a new one keeps its own', async () => {
    const path = await sqliteStoreBefore(join(work, 'old.db'), '0010_run_time', work, (db) => db.exec(insertOldRun));
    const store = await SqliteStore.open(path);
    try {
      await expectUpgraded(store);
    } finally {
      await store.close();
    }
  });

  // The stores of every schema from before the time column (0010) that storeVersions.spec.ts replays (a recorded run in each).
  const fixtures = join(process.cwd(), 'e2e', 'support', 'stores');
  it.each(readdirSync(fixtures).filter((name) => name.endsWith('.db') && name < 'v0010.db'))('SQLite: the run of fixture store %s shows no time', async (file) => {
    const path = join(work, file);
    copyFileSync(join(fixtures, file), path);
    const store = await SqliteStore.open(path);
    try {
      const runs = await store.listRuns(10);
      expect(runs).toHaveLength(1);
      expect(runs[0]!.time).toBeNull();
    } finally {
      await store.close();
    }
  });

  const skip = postgresSkipReason();
  describe.skipIf(skip !== undefined)(`PostgreSQL${skip ? ` (skipped: ${skip})` : ''}`, () => {
    let server: PostgresServer;
    beforeAll(async () => {
      server = await startPostgres();
    }, 120_000);
    afterAll(async () => server?.stop());

    it('an old run has no time, a new one keeps its own', async () => {
      const url = await postgresStoreBefore(await server.createDatabase(`run_time_${process.pid}`), '0005_run_time', work, async (client) => {
        await client.query(insertOldRun);
      });
      const store = await PostgresStore.open(url);
      try {
        await expectUpgraded(store);
      } finally {
        await store.close();
      }
    });
  });
});

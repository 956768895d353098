import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresStoreBefore, sqliteStoreBefore } from '../../e2e/support/migrationsBefore.js';
import { postgresSkipReason, startPostgres, type PostgresServer } from '../../e2e/support/postgresServer.js';
import { PostgresStore } from './postgres/postgresStore.js';
import { SqliteStore } from './sqliteStore.js';
import type { Store } from './store.js';

/**
 * The end URL moved from a node's state JSON into its own column (SQLite 0008 and 0009, PostgreSQL
 * 0003 and 0004). A store from before, holding an end in its state, a damaged state and a state
 * that is not an object, upgrades on open: the end is read from the column, nothing fails.
 */
const END = 'http://127.0.0.1:4010/done?id=7';
const rows: [id: string, state: string | null][] = [
  ['ended', JSON.stringify({ typeMode: 'keys', endUrl: END, ahead: [] })],
  ['damaged', '{"endUrl": "http://127.0.0.1:4010/x", broken'],
  ['list', JSON.stringify([{ endUrl: 'http://127.0.0.1:4010/y' }])],
  ['plain', JSON.stringify({ typeMode: 'keys' })],
];
const insertTask = `INSERT INTO tasks (id, task_template, tags, start_url, param_names, created_at, updated_at) VALUES ('t', 'x', '[]', 'http://127.0.0.1:4010/', '[]', 1, 1)`;
const insertNode = (id: string) => `INSERT INTO nodes (id, task_id, action, url, state, ends_run, created_at) VALUES ('${id}', 't', '{"type":"click","x":1,"y":1,"button":"left"}', 'http://127.0.0.1:4010/', ?, ${id === 'ended' ? 'true' : 'false'}, 1)`;

async function expectUpgraded(store: Store): Promise<void> {
  expect(await store.getNode('ended')).toMatchObject({ endUrl: END, endsRun: true });
  expect((await store.getNode('plain'))?.endUrl).toBeNull();
  expect((await store.getNode('list'))?.endUrl).toBeNull();
  expect((await store.getNode('damaged'))?.endUrl).toBeNull();
}

describe('the end URL column, on a store from before it', () => {
  const work = mkdtempSync(join(tmpdir(), 'rote-end-url-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('SQLite: moves each end into the column and skips a damaged state', async () => {
    const path = await sqliteStoreBefore(join(work, 'old.db'), '0008_end_url', work, (db) => {
      db.exec(insertTask);
      for (const [id, state] of rows) db.prepare(insertNode(id).replace('true', '1').replace('false', '0')).run(state);
    });
    const store = await SqliteStore.open(path);
    try {
      await expectUpgraded(store);
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

    it('moves each end into the column and skips a damaged state, row by row', async () => {
      const url = await postgresStoreBefore(await server.createDatabase(`end_url_${process.pid}`), '0003_end_url', work, async (client) => {
        await client.query(insertTask);
        for (const [id, state] of rows) await client.query(insertNode(id).replace('?', '$1'), [state]);
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

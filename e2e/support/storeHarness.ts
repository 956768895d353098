/**
 * The two stores under one test harness, for the conformance suite (store.test.ts) and any test
 * that must hold on both dialects. A PostgreSQL server is started once per test file (Debian's
 * postgresql package, 127.0.0.1, a temporary data directory) and each store gets a new database.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPostgres, type PostgresServer } from './postgresServer.js';
import { SqliteStore } from '../../src/store/sqliteStore.js';
import type { Store, StoreDialect } from '../../src/store/store.js';
import { PostgresStore } from '../../src/store/postgres/postgresStore.js';

export type StoreHarness = {
  dialect: StoreDialect;
  /** A new, empty store's location (file path or postgres:// URL). */
  fresh(): Promise<string>;
  /** Runs SQL on the store's database directly (to damage a row, count rows); `?` placeholders, numbered for pg. */
  raw(store: Store, text: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  /** Stops what `fresh` started. */
  dispose(): Promise<void>;
};

export const DIALECTS: readonly StoreDialect[] = ['sqlite', 'postgres'];

let databases = 0;

export async function storeHarness(dialect: StoreDialect): Promise<StoreHarness> {
  switch (dialect) {
    case 'sqlite': {
      const dir = mkdtempSync(join(tmpdir(), 'rote-conformance-'));
      let files = 0;
      return {
        dialect,
        fresh: async () => join(dir, `store-${++files}.db`),
        raw: async (store, text, params = []) => {
          const statement = (store as SqliteStore).db.$client.prepare(text);
          return statement.reader ? (statement.all(...params) as Record<string, unknown>[]) : (statement.run(...params), []);
        },
        dispose: async () => rmSync(dir, { recursive: true, force: true }),
      };
    }
    case 'postgres': {
      const server: PostgresServer = await startPostgres();
      return {
        dialect,
        fresh: () => server.createDatabase(`store_${process.pid}_${++databases}`),
        raw: async (store, text, params = []) => {
          let n = 0;
          const numbered = text.replace(/\?/g, () => `$${++n}`);
          return (await (store as PostgresStore).db.$client.query(numbered, params)).rows;
        },
        dispose: () => server.stop(),
      };
    }
  }
}

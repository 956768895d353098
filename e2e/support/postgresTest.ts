import { test as base } from '@playwright/test';
import { postgresSkipReason, startPostgres, type PostgresServer } from './postgresServer.js';

let databases = 0;

/**
 * Playwright Test with a private PostgreSQL server per test worker (started once, on 127.0.0.1,
 * a temporary data directory) and a new database of it for each test: `pgStore` is its URL.
 */
export const pgTest = base.extend<{ pgStore: string; needsPostgres: void }, { postgres: PostgresServer }>({
  // First, before any fixture starts a server: skipped where PostgreSQL is not installed (see postgresSkipReason).
  needsPostgres: [
    async ({}, use, testInfo) => {
      const reason = postgresSkipReason();
      testInfo.skip(reason !== undefined, reason);
      await use();
    },
    { auto: true },
  ],
  postgres: [
    async ({}, use) => {
      // Worker fixtures are set up before the test's own: where the tests are skipped, none is started.
      if (postgresSkipReason() !== undefined) return use(undefined as unknown as PostgresServer);
      const server = await startPostgres();
      await use(server);
      await server.stop();
    },
    { scope: 'worker', timeout: 60_000 },
  ],
  pgStore: async ({ postgres }, use) => {
    await use(await postgres.createDatabase(`e2e_${process.pid}_${++databases}`));
  },
});

import { test as base } from '@playwright/test';
import { startPostgres, type PostgresServer } from './postgresServer.js';

let databases = 0;

/**
 * Playwright Test with a private PostgreSQL server per test worker (started once, on 127.0.0.1,
 * a temporary data directory) and a new database of it for each test: `pgStore` is its URL.
 */
export const pgTest = base.extend<{ pgStore: string }, { postgres: PostgresServer }>({
  postgres: [
    async ({}, use) => {
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

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresSkipReason, startPostgres, type PostgresServer } from '../../../e2e/support/postgresServer.js';
import { JobQueue } from './jobQueue.js';

/**
 * Workers that start at the same moment on a new database all open the queue: creating the row
 * queue and its claim index at once can deadlock in PostgreSQL, which fails one of them, and that
 * one tries again (e2e/workers.spec.ts met it with three workers).
 */
const skipReason = postgresSkipReason();
describe.skipIf(skipReason !== undefined)(`JobQueue.open by workers starting together${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  let server: PostgresServer;
  beforeAll(async () => {
    server = await startPostgres();
  }, 120_000);
  afterAll(async () => server?.stop());

  it('opens for four workers at once on each of three new databases', async () => {
    for (let round = 1; round <= 3; round++) {
      const url = await server.createDatabase(`queue_${process.pid}_${round}`);
      const queues = await Promise.all(Array.from({ length: 4 }, () => JobQueue.open(url, { schedule: true })));
      expect(queues).toHaveLength(4);
      await Promise.all(queues.map((queue) => queue.stop({ graceful: false })));
    }
  }, 180_000);
});

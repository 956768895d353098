// Claiming a job from a long queue.
import { randomUUID } from 'node:crypto';
import PgBoss from 'pg-boss';
import { JobQueue, QUEUE_SCHEMA } from '../../src/scheduler/queue/jobQueue.js';
import { ROW_QUEUE, type RowJob } from '../../src/scheduler/queue/rowJob.js';
import type { PostgresServer } from '../../e2e/support/postgresServer.js';
import { round } from '../stats.js';
import { log } from './log.js';
import { timing, type ClaimFigures } from './results.js';
import type { Sizes } from './sizes.js';

/** Jobs per enqueueRows call: one INSERT of that many rows, as a large `rote run --rows` queues them. */
const ENQUEUE_CHUNK = 5_000;

/** A row job as `rote run --rows` queues it; the claim never runs it. */
function syntheticRowJob(batch: string, row: number): RowJob {
  return {
    v: 1,
    batch,
    row,
    taskKey: 'bench-task',
    url: 'http://127.0.0.1:1/intake',
    values: { firstName: `Pat${row}`, lastName: `Row${row}`, dob: '01/02/1970', state: 'Texas', plan: 'basic', reminders: 'true', notes: `Note for row ${row}` },
    secrets: {},
    mode: 'auto',
    agent: 'none',
    timeout: 120_000,
    attempts: 1,
    backoffMs: 2_000,
    headed: false,
  };
}

/** Queues `jobs` row jobs through rote's own queue (which also makes the claim index); seconds taken. */
async function fillQueue(url: string, jobs: number): Promise<number> {
  const queue = await JobQueue.open(url);
  const began = performance.now();
  try {
    const batch = randomUUID();
    for (let from = 0; from < jobs; from += ENQUEUE_CHUNK) {
      const chunk = Array.from({ length: Math.min(ENQUEUE_CHUNK, jobs - from) }, (_, i) => syntheticRowJob(batch, from + i + 1));
      await queue.enqueueRows(chunk);
    }
    return (performance.now() - began) / 1000;
  } finally {
    // Stopped before the claims are timed: its maintenance must not run alongside them.
    await queue.stop({ graceful: false });
  }
}

/** How PostgreSQL plans pg-boss's claim (the SELECT of its fetch), without the costs: "Limit > LockRows > Index Scan ...". */
async function claimPlan(boss: PgBoss): Promise<string> {
  const { rows } = await boss.getDb().executeSql(
    `EXPLAIN SELECT id FROM ${QUEUE_SCHEMA}.job WHERE name = $1 AND state < 'active' AND start_after < now() ORDER BY priority desc, created_on, id LIMIT 1 FOR UPDATE SKIP LOCKED`,
    [ROW_QUEUE],
  );
  return (rows as { 'QUERY PLAN': string }[])
    .map((row) => row['QUERY PLAN'])
    .filter((line) => !/^\s*(Filter|Index Cond|Sort Key|Output):/.test(line.trim()))
    .map((line) => line.replace(/->/, '').replace(/\s*\(cost=.*$/, '').trim())
    .join(' > ');
}

/** `claims` single claims, each pg-boss's own fetch of one job (what a worker's poll does), timed. */
async function timeClaims(boss: PgBoss, claims: number): Promise<number[]> {
  const timings: number[] = [];
  for (let claim = 0; claim < claims; claim++) {
    const started = performance.now();
    const jobs = await boss.fetch(ROW_QUEUE, { includeMetadata: true });
    timings.push(performance.now() - started);
    // pg-boss's fetch answers [] for an error too: an empty answer from a full queue is one.
    if (jobs.length !== 1) throw new Error(`claim benchmark: a fetch from a full queue returned ${jobs.length} jobs`);
  }
  return timings;
}

export async function measureClaims(server: PostgresServer, url: string, sizes: Sizes) {
  const enqueueS = await fillQueue(url, sizes.queuedJobs);
  log(`queue: ${sizes.queuedJobs.toLocaleString('en')} jobs queued in ${round(enqueueS, 1)} s`);
  await server.query(`ANALYZE ${QUEUE_SCHEMA}.job`);
  // A pg-boss of its own, on rote's queue schema: no supervision, no clock, only fetch.
  const boss = new PgBoss({ connectionString: url, schema: QUEUE_SCHEMA, max: 2, supervise: false, schedule: false, migrate: false, application_name: 'rote-bench' });
  boss.on('error', (error) => log(`pg-boss: ${String(error)}`));
  await boss.start();
  try {
    const claims: ClaimFigures[] = [];
    await timeClaims(boss, 3); // the pool's connections opened before the clock runs
    const indexedPlan = await claimPlan(boss);
    claims.push({ index: 'rote_job_claim_idx', ...timing(await timeClaims(boss, sizes.claims)), plan: indexedPlan });
    await server.query(`DROP INDEX ${QUEUE_SCHEMA}.rote_job_claim_idx`);
    const plainPlan = await claimPlan(boss);
    claims.push({ index: 'none', ...timing(await timeClaims(boss, sizes.unindexedClaims)), plan: plainPlan });
    return { jobs: sizes.queuedJobs, enqueueS: round(enqueueS, 1), jobsPerSecond: Math.round(sizes.queuedJobs / enqueueS), claims };
  } finally {
    await boss.stop({ graceful: false, wait: true });
  }
}

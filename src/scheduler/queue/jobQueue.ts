/**
 * The job queue on PostgreSQL: the one file that imports pg-boss (10.4.x, the last line that runs
 * on Node 20). rote keeps its queue in a schema of its own, so another application's pg-boss in
 * the same database is never touched, and refuses a queue schema of another pg-boss version
 * before anything runs.
 */
import PgBoss from 'pg-boss';
import { createRequire } from 'node:module';
import { RoteError } from '../../errors/roteError.js';
import { messageOf } from '../../errors/messageOf.js';
import { redactedUrl, withConnection } from '../../store/postgres/openPostgres.js';
import { ROW_QUEUE, type RowJob } from './rowJob.js';

/** The schema rote's queue lives in. */
export const QUEUE_SCHEMA = 'rote_queue';
/** The pg-boss schema version this rote runs with (pg-boss's version.json). */
const SCHEMA_VERSION: number = createRequire(import.meta.url)('pg-boss/version.json').schema;
/** Crashes of a worker a row survives: its job comes back after expiry this many times. */
const CRASH_RETRIES = 2;
/**
 * Beyond a run's deadline, before pg-boss takes the job's worker for dead: a browser context to
 * open and a page to load (bounded at 30 s each), and the run's record to write. The worker gives
 * the job up itself before then (rowWorker's watchdog): pg-boss v10 has no heartbeat, and a job
 * that outlives its expiry is retried while the first handler still runs.
 */
export const EXPIRY_MARGIN_S = 60;
/** A schedule's slot may run all its rows: 6 hours before a slot whose worker died lets the next one go. */
const SLOT_EXPIRY_S = 6 * 3600;

/** What a worker sees of a job. */
export type QueuedJob<T> = { id: string; data: T; retryCount: number; createdOn: Date; expireInSeconds: number };
/** A job's state and what its handler returned (or the error it threw). */
export type JobState = { state: 'created' | 'retry' | 'active' | 'completed' | 'cancelled' | 'failed'; output: unknown; retryCount: number };

export type QueueOptions = {
  /** Told of pg-boss's background trouble (a lost connection, a failed claim), at most once a minute. */
  onTrouble?: (message: string) => void;
  /** How often expired jobs (a worker that died) are found and retried; pg-boss's default is 120 s. */
  maintenanceIntervalSeconds?: number;
  /** Whether this process runs pg-boss's cron clock (workers do; a `rote run` that only enqueues need not). */
  schedule?: boolean;
};

export class JobQueue {
  private constructor(
    private readonly boss: PgBoss,
    readonly location: string,
  ) {}

  /** Connects, checks the queue schema's version, creates it when missing, and starts pg-boss. */
  static async open(url: string, options: QueueOptions = {}): Promise<JobQueue> {
    const location = redactedUrl(url);
    await checkQueueSchema(url, location);
    const boss = new PgBoss({
      connectionString: url,
      schema: QUEUE_SCHEMA,
      application_name: 'rote-queue',
      max: 4,
      maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 10,
      schedule: options.schedule ?? false,
      // How soon after its minute a slot is sent (pg-boss's default is 30 s); one instance at a time looks.
      cronMonitorIntervalSeconds: 10,
      supervise: true,
    });
    // pg-boss reports background trouble (a lost connection) as events: said, never a crash of the worker.
    let lastSaid = 0;
    boss.on('error', (error) => {
      if (Date.now() - lastSaid < 60_000) return;
      lastSaid = Date.now();
      options.onTrouble?.(`the job queue: ${messageOf(error).split('\n')[0]}`);
    });
    try {
      await boss.start();
      // Workers that start together create the row queue's partition and the claim index at the
      // same moment. The index is made under a lock (two CREATE INDEX IF NOT EXISTS at once can
      // both pass the check), and a step PostgreSQL failed to break a deadlock, or that met the
      // other's index, is done again: both steps are idempotent.
      await retryOnRace(async () => {
        await boss.createQueue(ROW_QUEUE, { name: ROW_QUEUE, policy: 'standard' });
        // pg-boss 10 claims with ORDER BY priority, created_on, id, which its own indexes do not cover:
        // every claim sorts the whole queue (about 120 ms at 100,000 jobs). This one makes it an index scan.
        // Made once, by whoever opens the queue first: asked before, since CREATE INDEX IF NOT EXISTS still needs the table's owner.
        const { rows } = await boss.getDb().executeSql(`SELECT to_regclass('${QUEUE_SCHEMA}.rote_job_claim_idx') AS index`, []);
        if (!(rows[0] as { index: string | null } | undefined)?.index) {
          await boss.getDb().executeSql(
            `DO $$ BEGIN
               PERFORM pg_advisory_xact_lock(hashtext('${QUEUE_SCHEMA}.rote_job_claim_idx'));
               IF to_regclass('${QUEUE_SCHEMA}.rote_job_claim_idx') IS NULL THEN
                 CREATE INDEX rote_job_claim_idx ON ${QUEUE_SCHEMA}.job (name, priority DESC, created_on, id) WHERE state < 'active';
               END IF;
             END $$`,
            [],
          );
        }
      });
    } catch (error) {
      await boss.stop({ graceful: false, wait: false }).catch(() => {});
      throw new RoteError('store', `rote: cannot start the job queue (schema ${QUEUE_SCHEMA}) at ${location}: ${explain(error)}`, { cause: error });
    }
    return new JobQueue(boss, location);
  }

  /**
   * One job per row, in one statement. A row's job expires (its worker is taken for dead) a margin
   * after its run's deadline, so a live worker always ends its run first and a row never runs twice
   * at once; it is then retried by another worker, up to CRASH_RETRIES times beyond its own retries.
   */
  async enqueueRows(jobs: readonly RowJob[]): Promise<string[]> {
    const ids = jobs.map(() => crypto.randomUUID());
    if (jobs.length === 0) return ids;
    await this.boss.insert(
      jobs.map((job, index) => ({
        id: ids[index]!,
        name: ROW_QUEUE,
        data: job,
        retryLimit: job.attempts - 1 + CRASH_RETRIES,
        retryDelay: Math.ceil(job.backoffMs / 1000),
        retryBackoff: job.backoffMs > 0,
        expireInSeconds: Math.ceil(job.timeout / 1000) + EXPIRY_MARGIN_S,
      })),
    );
    return ids;
  }

  /**
   * Takes jobs from `queue`, `concurrency` at once, each with `handler`. A handler that returns
   * completes its job (the value is the job's output); one that throws fails it, and pg-boss
   * retries it while its retry limit allows.
   */
  async work<T>(queue: string, concurrency: number, handler: (job: QueuedJob<T>) => Promise<object>, pollingSeconds = 0.5): Promise<void> {
    for (let slot = 0; slot < concurrency; slot++) {
      await this.boss.work<T>(queue, { batchSize: 1, pollingIntervalSeconds: pollingSeconds, includeMetadata: true }, async ([job]) => {
        if (!job) return undefined;
        return handler({ id: job.id, data: job.data, retryCount: job.retryCount, createdOn: new Date(job.createdOn), expireInSeconds: Number(job.expireInSeconds) });
      });
    }
  }

  /** The states of jobs of `queue`, live or archived, by id; an id the queue does not know is missing. */
  async states(queue: string, ids: readonly string[]): Promise<Map<string, JobState>> {
    const found = new Map<string, JobState>();
    if (ids.length === 0) return found;
    // One query for a whole batch (pg-boss's getJobById asks one at a time): its tables, pinned to the version checked at open.
    const { rows } = await this.boss.getDb().executeSql(
      `SELECT id::text AS id, state, output, retry_count AS "retryCount" FROM ${QUEUE_SCHEMA}.job WHERE name = $1 AND id = ANY($2::uuid[])
       UNION ALL
       SELECT id::text, state, output, retry_count FROM ${QUEUE_SCHEMA}.archive WHERE name = $1 AND id = ANY($2::uuid[])`,
      [queue, [...ids]],
    );
    for (const row of rows as { id: string; state: JobState['state']; output: unknown; retryCount: number }[]) found.set(row.id, { state: row.state, output: row.output, retryCount: row.retryCount });
    return found;
  }

  /**
   * Cancels those of the jobs no worker has taken (waiting, or waiting to be retried), in one
   * statement, and returns their ids. Not pg-boss's cancel: that one cancels active jobs too, whose
   * rows a worker is running right then.
   */
  async cancelWaiting(queue: string, ids: readonly string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const { rows } = await this.boss.getDb().executeSql(
      `UPDATE ${QUEUE_SCHEMA}.job SET state = 'cancelled', completed_on = now() WHERE name = $1 AND id = ANY($2::uuid[]) AND state IN ('created', 'retry') RETURNING id::text AS id`,
      [queue, [...ids]],
    );
    return (rows as { id: string }[]).map((row) => row.id);
  }

  /**
   * Registers a cron schedule that sends one job a slot into `queue` (created if missing); pg-boss's
   * clock sends it once across all instances. The queue is a singleton: one slot of a schedule is
   * taken at a time, the next waits until it ends. A slot job may take as long as its rows; its
   * expiry (after which a dead worker's slot lets the next one go) is long.
   */
  async schedule(queue: string, cron: string, timezone: string, data: object): Promise<void> {
    await this.boss.createQueue(queue, { name: queue, policy: 'singleton' });
    // The schedule's singleton key for the minute makes a second send of one slot (two clocks at once)
    // a no-op; the store's unique slot key is the last word (a slot recorded once is never run again).
    await this.boss.schedule(queue, cron, data, { tz: timezone, singletonKey: queue, singletonSeconds: 60, retryLimit: 0, expireInSeconds: SLOT_EXPIRY_S });
  }

  async unschedule(queue: string): Promise<void> {
    await this.boss.unschedule(queue);
  }

  /** The queues pg-boss sends cron jobs to whose names start with `prefix`. */
  async scheduledQueues(prefix: string): Promise<string[]> {
    return (await this.boss.getSchedules()).map((schedule) => schedule.name).filter((name) => name.startsWith(prefix));
  }

  /** Stops this process's handlers of `queue` (the jobs under way finish). */
  async stopWorking(queue: string): Promise<void> {
    await this.boss.offWork(queue);
  }

  /** Stops taking jobs; with `graceful`, waits (up to `timeoutMs`) for the handlers under way. */
  async stop(options: { graceful: boolean; timeoutMs?: number }): Promise<void> {
    await this.boss.stop({ graceful: options.graceful, wait: true, timeout: options.timeoutMs ?? 30_000 });
  }
}

/**
 * A queue schema that another pg-boss version made is refused before pg-boss touches it: pg-boss
 * itself would migrate an older one in place and run on a newer one as if it were its own.
 */
async function checkQueueSchema(url: string, location: string): Promise<void> {
  try {
    const version = await withConnection(url, async (query) => {
      const [found] = await query<{ table: string | null }>(`SELECT to_regclass($1) AS table`, [`${QUEUE_SCHEMA}.version`]);
      return found?.table ? Number((await query<{ version: string }>(`SELECT version FROM ${QUEUE_SCHEMA}.version`))[0]?.version) : undefined;
    });
    if (version === undefined || version === SCHEMA_VERSION) return;
    const advice =
      version > SCHEMA_VERSION
        ? 'a newer rote made it: upgrade rote on this machine to the version the other workers run'
        : `an older rote made it: let its workers finish the queue, then drop it (DROP SCHEMA ${QUEUE_SCHEMA} CASCADE) and rote makes a new one`;
    throw new RoteError('store', `rote: the job queue at ${location} (schema ${QUEUE_SCHEMA}) is pg-boss schema version ${version}, and this rote runs version ${SCHEMA_VERSION}: ${advice}`);
  } catch (error) {
    if (RoteError.isInstance(error)) throw error;
    throw new RoteError('store', `rote: cannot open the job queue at ${location}: ${explain(error)}`, { cause: error });
  }
}

function explain(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  const message = messageOf(error);
  if (code === '42501') return `the role may not create the queue's schema (${message}); grant it CREATE on the database (GRANT CREATE ON DATABASE ... TO ...), or have an owner start a worker once so the schema exists`;
  if (code === 'ECONNREFUSED') return `nothing answers there (${message}); is the server running, and are the host and port right?`;
  return message;
}

/** PostgreSQL's codes for a statement failed to break a deadlock, and for a name or relation another worker made at the same moment. */
const RACE_CODES = new Set(['40P01', '23505', '42P07']);

/** Does `work` again, after a short random pause, when it lost a race with another worker's setup. */
async function retryOnRace(work: () => Promise<void>, attempts = 5): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      const lost = RACE_CODES.has(String((error as { code?: unknown }).code)) || /deadlock detected|duplicate key value|already exists/i.test(messageOf(error));
      if (!lost || attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 200 * attempt));
    }
  }
}

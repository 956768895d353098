import { RoteError } from '../errors/roteError.js';
import { agentByName } from './agentByName.js';
import { firstLineOf, messageOf } from '../errors/messageOf.js';
import { Rote } from '../rote.js';
import { MAX_CONCURRENCY } from '../scheduler/jobSpec.js';
import { unattendedBrowsers } from '../scheduler/browserSupply.js';
import { JobQueue } from '../scheduler/queue/jobQueue.js';
import { ROW_QUEUE } from '../scheduler/queue/rowJob.js';
import { runRowJob } from '../scheduler/queue/rowWorker.js';
import { SlotWorker } from '../scheduler/queue/slotWorker.js';
import { checkStoreScheme, isPostgresUrl } from '../store/store.js';
import { exitOnUsage } from './usage.js';

export type WorkerCommandOptions = { store: string; concurrency: number; headed?: boolean };

/** How long a stop waits for the runs under way (each ends before its next step) before giving up on them. */
const STOP_WAIT_MS = 60_000;

/**
 * `rote worker --store postgres://... --concurrency N`: takes row jobs from the store's queue and
 * runs them, N at once on one browser, learning into the shared cache; runs the slots of the
 * store's schedules when pg-boss's cron sends them. SIGTERM or SIGINT stops it cleanly: no new job
 * is taken, runs under way end before their next step and their jobs go back to the queue.
 */
export async function workerCommand(options: WorkerCommandOptions): Promise<number> {
  const where = 'rote worker';
  const log = (line: string) => void process.stdout.write(`${new Date().toISOString()} ${line}\n`);
  return exitOnUsage((text) => void process.stderr.write(text), async () => {
    checkStoreScheme(options.store);
    if (!isPostgresUrl(options.store)) throw new RoteError('invalid-argument', `${where}: --store must be a postgres:// URL (a worker takes jobs from a PostgreSQL store's queue; a SQLite store runs its rows in the rote run process), got a value that is not one`);
    if (!Number.isInteger(options.concurrency) || options.concurrency < 1 || options.concurrency > MAX_CONCURRENCY) throw new RoteError('invalid-argument', `${where}: --concurrency must be a whole number from 1 to ${MAX_CONCURRENCY}, got ${options.concurrency}`);
    // pg-boss 10 does not await a job's completion: with the server gone at that moment it rejects
    // unhandled, which would end the worker. Said and survived: the job expires and runs again.
    const unhandled = (reason: unknown) => log(`the queue lost a job's completion: ${firstLineOf(messageOf(reason))}`);
    process.on('unhandledRejection', unhandled);
    const rote = await Rote.open({ store: options.store });
    let queue: JobQueue | undefined;
    const browsers = unattendedBrowsers({ headless: !options.headed });
    const stopping = new AbortController();
    try {
      queue = await JobQueue.open(options.store, { schedule: true, onTrouble: log });
      const deps = { rote, browsers, env: process.env, agents: agentByName, log, stop: stopping.signal };
      await queue.work(ROW_QUEUE, options.concurrency, (job) => runRowJob(deps, job));
      const slots = new SlotWorker({ ...deps, queue, url: options.store });
      await slots.start();
      log(`rote worker (process ${process.pid}) on ${rote.store.location}: ${options.concurrency} row${options.concurrency === 1 ? '' : 's'} at once`);
      const signal = await new Promise<NodeJS.Signals>((resolve) => {
        process.once('SIGTERM', () => resolve('SIGTERM'));
        process.once('SIGINT', () => resolve('SIGINT'));
      });
      log(`stopping (${signal}): no new job is taken; runs under way end after their current step and go back to the queue`);
      stopping.abort(signal);
      slots.stop();
      await queue.stop({ graceful: true, timeoutMs: STOP_WAIT_MS });
      log('stopped');
      return 0;
    } finally {
      await queue?.stop({ graceful: false }).catch(() => {});
      await browsers.close();
      await rote.close();
      process.off('unhandledRejection', unhandled);
    }
  });
}

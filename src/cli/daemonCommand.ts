import { RoteError } from '../errors/roteError.js';
import { agentByName } from './agentByName.js';
import { Rote } from '../rote.js';
import { unattendedBrowsers } from '../scheduler/browserSupply.js';
import { Daemon } from '../scheduler/daemon.js';
import { DaemonLock } from '../scheduler/daemonLock.js';
import { CATCH_UP_POLICIES, type CatchUpPolicy } from '../scheduler/scheduleSpec.js';
import { exitOnUsage } from './usage.js';
import { isPostgresUrl } from '../store/store.js';

export type DaemonCommandOptions = { store: string; catchUp?: string };

/**
 * `rote daemon`: runs the store's schedules until SIGTERM or SIGINT, then stops cleanly (no new
 * slot starts; runs under way end after their current step and are recorded interrupted) and
 * exits 0. One daemon per store: a second one refuses to start, naming the process that holds it.
 */
export async function daemonCommand(options: DaemonCommandOptions): Promise<number> {
  const where = 'rote daemon';
  const log = (line: string) => void process.stdout.write(`${new Date().toISOString()} ${line}\n`);
  return exitOnUsage((text) => void process.stderr.write(text), async () => {
    if (isPostgresUrl(options.store)) throw new RoteError('invalid-argument', `${where}: a PostgreSQL store's schedules run on its workers (pg-boss's cron sends each slot once to one of them): run rote worker --store URL instead of a daemon`);
    const catchUp = catchUpPolicy(options.catchUp, where);
    const lock = DaemonLock.acquire(options.store, where);
    try {
      const rote = await Rote.open({ store: options.store });
      try {
        return await runUntilSignalled(rote, catchUp, options.store, log);
      } finally {
        await rote.close();
      }
    } finally {
      lock.release();
    }
  });
}

async function runUntilSignalled(rote: Rote, catchUp: CatchUpPolicy, store: string, log: (line: string) => void): Promise<number> {
  const browsers = unattendedBrowsers();
  const daemon = new Daemon({ rote, env: process.env, agents: agentByName, catchUp, browsers, log });
  const stop = (signal: NodeJS.Signals) => void daemon.stop(`${signal}`);
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  log(`rote daemon (process ${process.pid}) on ${store}: ${(await rote.store.schedules.list()).length} schedule(s), catch-up ${catchUp}`);
  try {
    await daemon.run();
  } finally {
    process.off('SIGTERM', stop);
    process.off('SIGINT', stop);
    await browsers.close();
  }
  log('stopped: every slot under way is recorded');
  return 0;
}

function catchUpPolicy(value: string | undefined, where: string): CatchUpPolicy {
  if (value === undefined) return 'latest';
  if ((CATCH_UP_POLICIES as readonly string[]).includes(value)) return value as CatchUpPolicy;
  throw new RoteError('invalid-argument', `${where}: --catch-up must be one of ${CATCH_UP_POLICIES.join(', ')}, got ${JSON.stringify(value)}`);
}

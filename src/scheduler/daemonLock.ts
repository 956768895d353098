import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, resolve } from 'node:path';
import { messageOf } from '../errors/messageOf.js';
import { RoteError } from '../errors/roteError.js';
import { isProcessAlive } from '../store/processAlive.js';

type Holder = { pid: number; host: string; startedAt: number };

/**
 * The one daemon of a store: a file beside it, created exclusively, naming the process that
 * holds it. A second daemon refuses to start and says which process holds the store; a file left
 * by a process that is gone (killed) is taken over.
 */
export class DaemonLock {
  private constructor(private readonly path: string) {}

  static acquire(storePath: string, where: string): DaemonLock {
    const path = `${resolve(storePath)}.daemon.lock`;
    mkdirSync(dirname(path), { recursive: true });
    const me: Holder = { pid: process.pid, host: hostname(), startedAt: Date.now() };
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        writeFileSync(path, `${JSON.stringify(me)}\n`, { flag: 'wx' });
        return new DaemonLock(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new RoteError('store', `${where}: cannot create the daemon lock ${path}: ${messageOf(error)}`, { cause: error });
      }
      const holder = readHolder(path);
      if (!holder && ageMs(path) < FRESH_MS) {
        // Being written by a daemon starting this very moment: it holds the store.
        throw new RoteError('store', `${where}: another daemon is starting on the store ${storePath} (the lock ${path} was just created)`);
      }
      if (holder && holder.host === hostname() && isProcessAlive(holder.pid)) {
        throw new RoteError('store', `${where}: another daemon holds the store ${storePath}: process ${holder.pid} on ${holder.host}, started ${new Date(holder.startedAt).toISOString()} (stop it first; the lock is ${path})`);
      }
      if (holder && holder.host !== hostname()) {
        throw new RoteError('store', `${where}: a daemon on another host (${holder.host}, process ${holder.pid}) holds the store ${storePath}; if it is gone, remove ${path}`);
      }
      // Left by a process that is gone: take it over.
      rmSync(path, { force: true });
    }
    throw new RoteError('store', `${where}: could not take the daemon lock ${path}`);
  }

  release(): void {
    rmSync(this.path, { force: true });
  }
}

/** A lock file younger than this with no holder in it is one being written now. */
const FRESH_MS = 5_000;

function ageMs(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

function readHolder(path: string): Holder | undefined {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<Holder>;
    return typeof parsed.pid === 'number' && typeof parsed.host === 'string' && typeof parsed.startedAt === 'number' ? (parsed as Holder) : undefined;
  } catch {
    return undefined;
  }
}

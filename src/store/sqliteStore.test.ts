import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RoteError } from '../errors/roteError.js';
import { openDatabase } from './open.js';
import type { FinishedRun } from './rows.js';
import { finished, task } from '../../e2e/support/storeTestRows.js';
import { SqliteStore } from './sqliteStore.js';

/** What only the SQLite store has: pragmas, the file checks. The rest is the conformance suite (store.test.ts). */
let store: SqliteStore;

beforeEach(() => {
  store = SqliteStore.openSync(':memory:');
});
afterEach(async () => {
  await store.close();
});

describe('open', () => {
  it('applies the migrations', async () => {
    const tables = store.db.$client
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .all()
      .map((row) => (row as { name: string }).name);
    expect(tables).toEqual(expect.arrayContaining(['blobs', 'nodes', 'run_steps', 'runs', 'tasks']));
    expect(store.db.$client.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(store.db.$client.pragma('busy_timeout', { simple: true })).toBe(5000);
    expect(await store.taskCount()).toBe(0);
  });

  describe('on disk', () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'rote-store-'));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('creates parent directories, uses WAL and keeps data across opens', async () => {
      const path = join(dir, 'nested', '.rote', 'rote.db');
      const first = SqliteStore.openSync(path);
      expect(first.db.$client.pragma('journal_mode', { simple: true })).toBe('wal');
      await first.commitRun({ task: task(), run: await beginAndFinish(first) });
      await first.close();

      const second = SqliteStore.openSync(path); // migrations already applied: must be a no-op
      expect((await second.getTask('task-1'))?.taskTemplate).toBe('search for {{query}}');
      await second.close();
    });

    it('rejects a directory', () => {
      expect(() => openDatabase(dir)).toThrowError(
        new RegExp(`cannot open store at "${dir}": it is a directory \\(expected a writable file path or ":memory:"\\)`),
      );
    });

    it('rejects a path under a regular file', () => {
      const file = join(dir, 'file.txt');
      writeFileSync(file, 'x');
      const path = join(file, 'rote.db');
      const error = captureError(() => openDatabase(path));
      expect(RoteError.isInstance(error) && error.code).toBe('store');
      expect((error as Error).message).toMatch(
        new RegExp(`^rote: cannot open store at "${path}": .*(ENOTDIR|EEXIST).*expected a writable file path`),
      );
      expect((error as Error).cause).toBeInstanceOf(Error);
    });

    it.skipIf(process.getuid?.() === 0)('rejects a read-only parent directory', () => {
      const readOnly = join(dir, 'ro');
      mkdirSync(readOnly, { mode: 0o500 });
      expect(() => openDatabase(join(readOnly, 'rote.db'))).toThrowError(/cannot open store at ".*": .*EACCES/);
    });

    it('rejects a file that is not a database', () => {
      const path = join(dir, 'not-a-db');
      writeFileSync(path, 'this is not sqlite, just some text long enough to have a header');
      expect(() => openDatabase(path)).toThrowError(/cannot open store at ".*not-a-db": file is not a database/);
    });
  });
});

async function beginAndFinish(target: SqliteStore): Promise<FinishedRun> {
  await target.beginRun({ id: 'disk-run', taskId: 'task-1', task: 't', mode: 'auto', startedAt: 1, pid: process.pid });
  return finished('disk-run');
}

function captureError(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

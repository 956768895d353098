import { afterAll, afterEach, beforeAll, beforeEach, it } from 'vitest';
import { openStore, type Store, type StoreDialect } from '../../src/store/store.js';
import { postgresSkipReason } from './postgresServer.js';
import { storeHarness, type StoreHarness } from './storeHarness.js';

/** A pid above any Linux/macOS pid_max, so never a live process. */
export const DEAD_PID = 2 ** 31 - 2;

/** What a conformance test reads: the store opened fresh for it, where it lives, and a way to begin runs. */
export type FreshStore = {
  readonly store: Store;
  readonly location: string;
  /** The harness, for raw SQL on the store. */
  readonly harness: StoreHarness;
  /** How many runs `begin` has begun in this file: the last one started at 1000 plus this. */
  readonly runsBegun: number;
  /** Begins a run (on this test's store unless `on`) and returns its id. */
  begin(pid?: number, on?: Store, jobId?: string | null): Promise<string>;
};

/**
 * Inside a `describe.each(DIALECTS)`: a fresh store for each test on `dialect`, closed after it.
 * Undefined where PostgreSQL is not installed: its half is then one skipped test saying so (never
 * in CI: postgresSkipReason).
 */
export function freshStoreEachTest(dialect: StoreDialect): FreshStore | undefined {
  const skipReason = dialect === 'postgres' ? postgresSkipReason() : undefined;
  if (skipReason) {
    it.skip(skipReason, () => {});
    return undefined;
  }
  let harness: StoreHarness;
  let location = '';
  let store: Store | undefined;
  let runCounter = 0;
  beforeAll(async () => {
    harness = await storeHarness(dialect);
  }, 60_000);
  afterAll(async () => harness?.dispose());
  beforeEach(async () => {
    location = await harness.fresh();
    store = await openStore(location);
  });
  afterEach(async () => store?.close());
  return {
    get store() {
      return store!;
    },
    get location() {
      return location;
    },
    get harness() {
      return harness;
    },
    get runsBegun() {
      return runCounter;
    },
    async begin(pid = process.pid, on?: Store, jobId: string | null = null) {
      const id = `run-${++runCounter}`;
      await (on ?? store!).beginRun({ id, taskId: 'task-1', task: 'search for {{query}}', mode: 'auto', startedAt: 1000 + runCounter, pid, jobId });
      return id;
    },
  };
}

import { RoteError } from '../errors/roteError.js';
import type {
  BeginRunInput,
  CommitRunInput,
  ImportedTrajectory,
  NodeRow,
  RunRow,
  RunStepRow,
  TaskRow,
  TaskSummary,
} from './rows.js';
import type { ScheduleStore } from './scheduleStore.js';
import type { ConversationStore } from './conversationStore.js';

/** Which runs a report or stats read; every filter given must hold. */
export type RunFilter = { ids?: readonly string[]; since?: number; taskIds?: readonly string[]; jobIds?: readonly string[]; limit?: number };

/** The store's database: the embedded SQLite default, or a PostgreSQL server many machines share. */
export type StoreDialect = 'sqlite' | 'postgres';

/**
 * The trajectory cache and run log, over either dialect. A run's writes are committed together
 * by `commitRun` so a crash never leaves half a trajectory; row shapes are documented in rows.ts.
 * Both implementations pass one conformance suite (storeConformance.ts).
 */
export interface Store {
  readonly dialect: StoreDialect;
  /** Where the store is, for messages: a file path, or a postgres:// URL without its password. */
  readonly location: string;
  /** Schedules and the record of their slots. */
  readonly schedules: ScheduleStore;
  /** The proxy's conversation trees. */
  readonly conversations: ConversationStore;

  getTask(id: string): Promise<TaskRow | undefined>;
  /** Every task with the number of its recorded steps, by template. */
  listTasks(): Promise<TaskSummary[]>;
  taskCount(): Promise<number>;
  /** Recorded steps, over all tasks. */
  nodeCount(): Promise<number>;
  getNode(id: string): Promise<NodeRow | undefined>;
  /** Candidate next steps after `parentId` (null: the first steps), most recently successful first. */
  children(taskId: string, parentId: string | null): Promise<NodeRow[]>;
  /** Up to `limit` descendants of `rootParentId` (null: the whole task), nearest levels first. */
  subtree(taskId: string, rootParentId: string | null, limit: number): Promise<NodeRow[]>;
  getBlob(hash: string): Promise<Buffer | undefined>;

  /** Written before the run does anything, so a killed process still leaves a 'running' row. */
  beginRun(input: BeginRunInput): Promise<void>;
  /**
   * Everything a finished run learned, in one transaction: either all of it is stored or none,
   * and on failure the run row stays 'running' (later marked 'interrupted'). New nodes equal to
   * ones another run stored meanwhile are folded into those (see branchMerge.ts).
   */
  commitRun(input: CommitRunInput): Promise<void>;
  /**
   * Runs still 'running' whose process is gone become 'interrupted'. A live pid is left alone: it
   * may be another process using the same store right now. Only this machine's processes can be
   * judged; runs of other hosts are left to their own hosts (or to the job queue's expiry).
   */
  markInterruptedRuns(): Promise<number>;
  /** Runs still 'running' under a queue job that is being run again: their worker died. */
  markRunsOfJobInterrupted(jobId: string, reason: string): Promise<number>;

  /** Most recent runs first. */
  listRuns(limit: number): Promise<RunRow[]>;
  /** Finished and running runs that match every given filter, newest first: for reports and stats. */
  findRuns(filter?: RunFilter): Promise<RunRow[]>;
  /** Ids of runs that start with `prefix` (at most `limit`): how a person names a run they saw in a report. */
  runIdsStartingWith(prefix: string, limit?: number): Promise<string[]>;
  /** The steps of many runs at once (a report's), in step order per run. */
  stepsOfRuns(runIds: readonly string[]): Promise<RunStepRow[]>;
  runSteps(runId: string): Promise<RunStepRow[]>;

  /**
   * Stores whole trajectories that no run produced (an imported recording, a benchmark's fill),
   * in one transaction. A node whose id is already stored takes the file's fields and keeps its
   * use counters, so importing the same trajectory twice changes nothing.
   */
  importTrajectories(items: readonly ImportedTrajectory[]): Promise<void>;
  close(): Promise<void>;
}

/** A postgres:// (or postgresql://) URL names a server; anything else is a SQLite file path or ":memory:". */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location.trim());
}

/**
 * Refuses a URL of another scheme (postgre://, mysql://): taken for a file name it would make
 * folders named after the URL, password and all, and run on an empty store.
 */
export function checkStoreScheme(location: string): void {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(location.trim())?.[1];
  if (scheme !== undefined && !isPostgresUrl(location)) {
    throw new RoteError('invalid-argument', `rote: the store "${scheme}://..." is not a postgres:// URL; give a file path (SQLite) or postgres://USER:PASSWORD@HOST:PORT/DATABASE`);
  }
}

/**
 * Opens the store at `location`, creating and migrating it if needed, then closes out runs of
 * this machine's dead processes. The PostgreSQL driver is loaded only for a postgres:// URL, so
 * the embedded default never needs it.
 */
export async function openStore(location: string): Promise<Store> {
  checkStoreScheme(location);
  if (isPostgresUrl(location)) {
    const { PostgresStore } = await import('./postgres/postgresStore.js');
    return PostgresStore.open(location);
  }
  const { SqliteStore } = await import('./sqliteStore.js');
  return SqliteStore.open(location);
}

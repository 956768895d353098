import { and, asc, desc, gte, inArray, lt } from 'drizzle-orm';
import { runSteps, runs } from './schema.js';
import { openDatabase, type RoteDatabase } from './open.js';
import type { BeginRunInput, CommitRunInput, ImportedTrajectory, NewBlob, NewNodeRow, NodeRow, RunRow, RunStepRow, TaskRow, TaskSummary } from './rows.js';
import { stripUndefined, UnreadableColumn, withNodeDefaults } from './rows.js';
import { checkBlob, checkImportClash, deadProcessReason, leftByDeadProcess, inHashOrder, mergedTask, NO_IMAGES, thisHost } from './storeRules.js';
import { finishRunValues, nodeFromDriver, prepareStatements, type Statements } from './statements.js';
import { guardStore } from './guard.js';
import { SqliteScheduleStore } from './sqliteScheduleStore.js';
import { SqliteConversationStore } from './sqliteConversationStore.js';
import { mergeBranchSync } from './branchMerge.js';
import { importedState, parsedStateText, patchedState } from './statePatch.js';
import type { RunFilter, Store } from './store.js';

/**
 * The embedded default: one SQLite file (better-sqlite3). Every call is a short local query run
 * synchronously; the methods are async only to share the Store interface with PostgreSQL.
 * Writers in several processes are serialized by IMMEDIATE transactions and the busy timeout.
 */
export class SqliteStore implements Store {
  readonly dialect = 'sqlite';
  private readonly statements: Statements;
  private closed = false;
  readonly schedules: SqliteScheduleStore;
  readonly conversations: SqliteConversationStore;

  /** Prefer `SqliteStore.open`; this is for callers that already hold a migrated database. */
  constructor(
    readonly db: RoteDatabase,
    /** The path the store was opened at, for error messages. */
    readonly location: string,
  ) {
    this.statements = prepareStatements(db);
    this.schedules = new SqliteScheduleStore(db, location);
    this.conversations = new SqliteConversationStore(db, location);
  }

  /** Opens (creating and migrating if needed) the store, then closes out runs of dead processes. */
  static async open(path: string): Promise<SqliteStore> {
    return SqliteStore.openSync(path);
  }

  /** `open` for callers that cannot wait (a benchmark's fill, a test's setup). */
  static openSync(path: string): SqliteStore {
    const store = new SqliteStore(openDatabase(path), path);
    try {
      store.markInterruptedRunsNow();
      store.schedules.markInterruptedSlotsNow();
    } catch (error) {
      store.db.$client.close();
      throw error;
    }
    return store;
  }

  async getTask(id: string): Promise<TaskRow | undefined> {
    return this.guard('read task', () => this.statements.getTask.get({ id }));
  }

  /** Every task with the number of its recorded steps, by template. */
  async listTasks(): Promise<TaskSummary[]> {
    return this.guard('list tasks', () => this.statements.listTasks.all());
  }

  async taskCount(): Promise<number> {
    return this.guard('count tasks', () => this.statements.taskCount.get()?.n ?? 0);
  }

  /** Recorded steps, over all tasks. */
  async nodeCount(): Promise<number> {
    return this.guard('count nodes', () => this.statements.nodeCount.get()?.n ?? 0);
  }

  async getNode(id: string): Promise<NodeRow | undefined> {
    return this.guard('read node', () => {
      const raw = this.statements.getNode.get({ id });
      return raw ? nodeFromDriver(raw) : undefined;
    });
  }

  /** Candidate next steps after `parentId` (null: the first steps), most recently successful first. */
  async children(taskId: string, parentId: string | null): Promise<NodeRow[]> {
    return this.guard('read children', () => this.statements.children.all({ taskId, parentId }).map((raw) => nodeFromDriver(raw)));
  }

  /** Up to `limit` descendants of `rootParentId` (null: the whole task), nearest levels first. */
  async subtree(taskId: string, rootParentId: string | null, limit: number): Promise<NodeRow[]> {
    return this.guard('read subtree', () =>
      this.statements.subtree.all({ taskId, parentId: rootParentId, limit }).map((raw) => nodeFromDriver(raw)),
    );
  }

  async getBlob(hash: string): Promise<Buffer | undefined> {
    return this.guard('read blob', () => this.statements.getBlob.get({ hash })?.bytes);
  }

  /** Written before the run does anything, so a killed process still leaves a 'running' row. */
  async beginRun(input: BeginRunInput): Promise<void> {
    this.guard(`begin run ${input.id}`, () => this.statements.insertRun.run({ host: thisHost(), jobId: null, params: null, ...stripUndefined(input) }));
  }

  /**
   * Everything a finished run learned, in one transaction: either all of it is stored or none,
   * and on failure the run row stays 'running' (later marked 'interrupted').
   */
  async commitRun(input: CommitRunInput): Promise<void> {
    this.guard(`commit run ${input.run.id}`, () => this.commitTransaction(input));
  }

  /**
   * Runs still 'running' whose process is gone become 'interrupted'. A live pid is left alone:
   * it may be another process using the same store right now.
   */
  async markInterruptedRuns(): Promise<number> {
    return this.markInterruptedRunsNow();
  }

  private markInterruptedRunsNow(): number {
    return this.guard('mark interrupted runs', () => {
      const now = Date.now();
      const dead = leftByDeadProcess(this.statements.runningRuns.all(), 'this-machine');
      const mark = this.db.$client.transaction(() => {
        let marked = 0;
        for (const run of dead) {
          marked += this.statements.interruptRun.run({ id: run.id, endedAt: now, error: deadProcessReason(run, 'run') }).changes;
        }
        return marked;
      });
      return mark.immediate();
    });
  }

  async markRunsOfJobInterrupted(jobId: string, reason: string): Promise<number> {
    return this.guard(`close out the runs of job ${jobId}`, () => this.statements.interruptRunsOfJob.run({ jobId, endedAt: Date.now(), error: reason }).changes);
  }

  /** Most recent runs first. */
  async listRuns(limit: number): Promise<RunRow[]> {
    return this.guard('list runs', () => this.statements.listRuns.all({ limit }));
  }

  /**
   * Finished and running runs that match every given filter, newest first: for reports and stats,
   * never on a run's path (built per call, not prepared).
   */
  async findRuns(filter: RunFilter = {}): Promise<RunRow[]> {
    return this.guard('find runs', () => {
      const query = (ids: readonly string[] | undefined) => {
        const conditions = [
          ids ? inArray(runs.id, [...ids]) : undefined,
          filter.since !== undefined ? gte(runs.startedAt, filter.since) : undefined,
          filter.taskIds ? inArray(runs.taskId, [...filter.taskIds]) : undefined,
          filter.jobIds ? inArray(runs.jobId, [...filter.jobIds]) : undefined,
        ].filter((condition) => condition !== undefined);
        return this.db.select().from(runs).where(and(...conditions)).orderBy(desc(runs.startedAt), desc(runs.id)).all();
      };
      // SQLite binds at most 32,766 values per statement: many ids (a big batch's) are asked in chunks.
      const found = filter.ids ? chunks(filter.ids, 500).flatMap(query).sort((a, b) => b.startedAt - a.startedAt || (a.id < b.id ? 1 : -1)) : query(undefined);
      return filter.limit !== undefined ? found.slice(0, filter.limit) : found;
    });
  }

  /** Ids of runs that start with `prefix` (at most `limit`): how a person names a run they saw in a report. */
  async runIdsStartingWith(prefix: string, limit = 10): Promise<string[]> {
    return this.guard('find run ids', () =>
      this.db
        .select({ id: runs.id })
        .from(runs)
        .where(and(gte(runs.id, prefix), lt(runs.id, `${prefix}\uffff`)))
        .limit(limit)
        .all()
        .map((row) => row.id),
    );
  }

  /** The steps of many runs at once (a report's), in step order per run. */
  async stepsOfRuns(runIds: readonly string[]): Promise<RunStepRow[]> {
    return this.guard('read steps of runs', () => {
      return chunks(runIds, 500).flatMap((chunk) => this.db.select().from(runSteps).where(inArray(runSteps.runId, [...chunk])).orderBy(asc(runSteps.runId), asc(runSteps.idx), asc(runSteps.id)).all());
    });
  }

  async runSteps(runId: string): Promise<RunStepRow[]> {
    return this.guard('read run steps', () => this.statements.runSteps.all({ runId }));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.db.$client.close();
  }

  /**
   * Stores whole trajectories that no run produced (an imported recording, a benchmark's fill):
   * tasks upserted as in commitRun, blobs, nodes; all of them in one transaction. A node whose id
   * is already stored is left as it is, so importing the same trajectory twice changes nothing.
   */
  async importTrajectories(items: readonly ImportedTrajectory[]): Promise<void> {
    this.guard(`import ${items.length} trajectories`, () => {
      const write = this.db.$client.transaction(() => {
        for (const item of items) this.writeTrajectory(item.task, item.blobs ?? [], item.nodes, Date.now(), { keepExisting: true });
      });
      write.immediate();
    });
  }

  private writeTrajectory(
    task: TaskRow | undefined,
    blobs: readonly NewBlob[],
    newNodes: readonly NewNodeRow[],
    now: number,
    options: { keepExisting?: boolean } = {},
  ): void {
    const s = this.statements;
    if (task) {
      const stored = s.getTask.get({ id: task.id });
      s.upsertTask.run(mergedTask(task, stored));
    }
    // Blobs before nodes: nodes.cropHash references blobs.hash.
    for (const blob of inHashOrder(blobs)) {
      checkBlob(blob);
      s.insertBlob.run({ hash: blob.hash, bytes: blob.bytes, size: blob.bytes.length, createdAt: now });
    }
    // A run's new node ids are fresh: a clash there is a bug and fails the commit. An import updates
    // a node it stored before to the file's fields (an edit made in review applies), keeping its
    // use counters, but never lets one task's node id stand for another task's.
    for (const node of newNodes) {
      if (!options.keepExisting) {
        s.insertNode.run(withNodeDefaults(node));
        continue;
      }
      const raw = s.getNode.get({ id: node.id });
      const stored = raw ? nodeFromDriver(raw) : undefined;
      checkImportClash(node, stored);
      // What runs learned about the stored step since the file was written stays with it.
      const state = stored ? importedState({ state: node.state, endsRun: node.endsRun ?? false }, { state: stored.state instanceof UnreadableColumn ? null : stored.state, endsRun: stored.endsRun }) : node.state;
      s.importNode.run(withNodeDefaults({ ...node, state }));
    }
  }

  private commitTransaction(committed: CommitRunInput): void {
    let input = committed;
    const s = this.statements;
    const now = Date.now();
    const write = this.db.$client.transaction(() => {
      const taskId = input.newNodes?.[0]?.taskId;
      if (taskId !== undefined) input = mergeBranchSync(input, taskId, (task, parentId) => this.statements.children.all({ taskId: task, parentId }).map((raw) => nodeFromDriver(raw)));
      this.writeTrajectory(input.task, input.blobs ?? [], input.newNodes ?? [], now);
      for (const stat of input.nodeStats ?? []) {
        const { changes } = s.recordNodeUse.run({
          id: stat.id,
          hit: stat.hit ? 1 : 0,
          miss: stat.hit ? 0 : 1,
          usedAt: stat.usedAt,
          succeeded: stat.succeeded ? 1 : 0, // raw placeholders: no boolean encoder
        });
        if (changes === 0) throw new Error(`node ${stat.id} (in nodeStats) does not exist`);
      }
      for (const link of input.nodeLinks ?? []) {
        let changes = 1;
        if (link.resumeAtId !== undefined) changes = s.setResumeAt.run({ id: link.id, resumeAtId: link.resumeAtId }).changes;
        if (link.endsRun !== undefined) changes = s.setEndsRun.run({ id: link.id, endsRun: link.endsRun ? 1 : 0 }).changes;
        if (link.endUrl !== undefined) changes = s.setEndUrl.run({ id: link.id, endUrl: link.endUrl }).changes;
        if (link.state !== undefined) {
          const stored = s.nodeState.get({ id: link.id });
          if (!stored) throw new Error(`node ${link.id} (in nodeLinks) does not exist`);
          const state = patchedState(parsedStateText(stored.state), link);
          if (state) s.setState.run({ id: link.id, state: JSON.stringify(state) });
        }
        if (changes === 0) throw new Error(`node ${link.id} (in nodeLinks) does not exist`);
      }
      const { changes } = s.finishRun.run(finishRunValues(input.run));
      if (changes === 0) throw new Error(`run ${input.run.id} was never begun (call beginRun first)`);
      for (const step of input.steps ?? []) s.insertStep.run({ ...NO_IMAGES, ...stripUndefined(step) });
    });
    // IMMEDIATE takes the write lock up front: a deferred transaction that reads first can fail
    // with SQLITE_BUSY, without waiting, when another process writes in between.
    write.immediate();
  }

  /** Turns driver and integrity errors into a RoteError naming the store and the operation. */
  private guard<T>(operation: string, fn: () => T): T {
    return guardStore(this.location, operation, fn);
  }
}

function chunks<T>(items: readonly T[], size: number): (readonly T[])[] {
  const out: (readonly T[])[] = [];
  for (let start = 0; start < items.length; start += size) out.push(items.slice(start, start + size));
  return out;
}

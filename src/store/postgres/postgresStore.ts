import { and, asc, count, desc, eq, getTableColumns, gte, lt, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { PoolClient } from 'pg';
import { guardStoreAsync } from '../guard.js';
import { importedState, parsedStateText, patchedState } from '../statePatch.js';
import { mergeBranch } from '../branchMerge.js';
import { importNodeSet } from '../importNodeSet.js';
import { finishedRunColumns, stripUndefined, withNodeDefaults, type BeginRunInput, type CommitRunInput, type ImportedTrajectory, type NewBlob, type NewNodeRow, type NodeRow, type RunRow, type RunStepRow, type TaskRow, type TaskSummary } from '../rows.js';
import { checkBlob, checkImportClash, deadProcessReason, leftByDeadProcess, inHashOrder, mergedTask, NO_IMAGES, thisHost } from '../storeRules.js';
import type { RunFilter, Store } from '../store.js';
import { childrenVia, GET_BLOB, GET_NODE, nodeList, subtreeQuery } from './nodeQueries.js';
import { openPostgres, type PostgresDatabase } from './openPostgres.js';
import { PostgresScheduleStore } from './postgresScheduleStore.js';
import { PostgresConversationStore } from './postgresConversationStore.js';
import { blobs, nodes, runSteps, runs, tasks } from './schema.js';

/** A transaction's handle: drizzle's, and the pg client under it for raw statements. */
type Tx = Parameters<Parameters<PostgresDatabase['transaction']>[0]>[0];

/**
 * The store on a PostgreSQL server that many processes and machines share. Commits are
 * transactions; two commits that learn into the same task take the task's advisory lock in turn,
 * so the second sees what the first stored and folds its equal new nodes into it (branchMerge.ts).
 */
export class PostgresStore implements Store {
  readonly dialect = 'postgres';
  readonly schedules: PostgresScheduleStore;
  readonly conversations: PostgresConversationStore;
  private closed = false;

  private constructor(
    readonly db: PostgresDatabase,
    readonly location: string,
  ) {
    this.schedules = new PostgresScheduleStore(db, location);
    this.conversations = new PostgresConversationStore(db, location);
  }

  static async open(url: string): Promise<PostgresStore> {
    const { db, location } = await openPostgres(url);
    const store = new PostgresStore(db, location);
    try {
      await store.markInterruptedRuns();
      await store.schedules.markInterruptedSlots();
    } catch (error) {
      await store.close();
      throw error;
    }
    return store;
  }

  getTask(id: string): Promise<TaskRow | undefined> {
    return this.guard('read task', async () => (await this.db.select().from(tasks).where(eq(tasks.id, id)))[0]);
  }

  listTasks(): Promise<TaskSummary[]> {
    return this.guard('list tasks', () =>
      this.db
        .select({ ...getTableColumns(tasks), nodes: count(nodes.id) })
        .from(tasks)
        .leftJoin(nodes, eq(nodes.taskId, tasks.id))
        .groupBy(tasks.id)
        .orderBy(asc(tasks.taskTemplate), asc(tasks.id)),
    );
  }

  taskCount(): Promise<number> {
    return this.guard('count tasks', async () => (await this.db.select({ n: count() }).from(tasks))[0]?.n ?? 0);
  }

  nodeCount(): Promise<number> {
    return this.guard('count nodes', async () => (await this.db.select({ n: count() }).from(nodes))[0]?.n ?? 0);
  }

  getNode(id: string): Promise<NodeRow | undefined> {
    return this.guard('read node', async () => nodeList((await this.db.$client.query({ ...GET_NODE, values: [id] })).rows)[0]);
  }

  children(taskId: string, parentId: string | null): Promise<NodeRow[]> {
    return this.guard('read children', () => childrenVia((query) => this.db.$client.query(query), taskId, parentId));
  }

  subtree(taskId: string, rootParentId: string | null, limit: number): Promise<NodeRow[]> {
    return this.guard('read subtree', async () => {
      const query = subtreeQuery(taskId, rootParentId, limit);
      const result = await this.db.$client.query(query.text, query.values);
      return nodeList(result.rows);
    });
  }

  getBlob(hash: string): Promise<Buffer | undefined> {
    return this.guard('read blob', async () => (await this.db.$client.query<{ bytes: Buffer }>({ ...GET_BLOB, values: [hash] })).rows[0]?.bytes);
  }

  beginRun(input: BeginRunInput): Promise<void> {
    return this.guard(`begin run ${input.id}`, async () => {
      await this.db.insert(runs).values({ host: thisHost(), jobId: null, ...stripUndefined(input), status: 'running' });
    });
  }

  commitRun(input: CommitRunInput): Promise<void> {
    return this.guard(`commit run ${input.run.id}`, () => this.db.transaction((tx) => this.commitIn(tx, input)));
  }

  markInterruptedRuns(): Promise<number> {
    return this.guard('mark interrupted runs', async () => {
      const running = await this.db.select({ id: runs.id, pid: runs.pid, host: runs.host }).from(runs).where(eq(runs.status, 'running'));
      let marked = 0;
      for (const run of leftByDeadProcess(running, 'unknown')) {
        const closed = await this.db
          .update(runs)
          .set({ status: 'interrupted', endedAt: Date.now(), error: deadProcessReason(run, 'run') })
          .where(and(eq(runs.id, run.id), eq(runs.status, 'running')));
        marked += closed.rowCount ?? 0;
      }
      return marked;
    });
  }

  markRunsOfJobInterrupted(jobId: string, reason: string): Promise<number> {
    return this.guard(`close out the runs of job ${jobId}`, async () => {
      const closed = await this.db.update(runs).set({ status: 'interrupted', endedAt: Date.now(), error: reason }).where(and(eq(runs.jobId, jobId), eq(runs.status, 'running')));
      return closed.rowCount ?? 0;
    });
  }

  listRuns(limit: number): Promise<RunRow[]> {
    return this.guard('list runs', () => this.db.select().from(runs).orderBy(desc(runs.startedAt), desc(runs.id)).limit(limit));
  }

  findRuns(filter: RunFilter = {}): Promise<RunRow[]> {
    return this.guard('find runs', async () => {
      const conditions = [
        filter.ids ? anyOf(runs.id, filter.ids) : undefined,
        filter.since !== undefined ? gte(runs.startedAt, filter.since) : undefined,
        filter.taskIds ? anyOf(runs.taskId, filter.taskIds) : undefined,
        filter.jobIds ? anyOf(runs.jobId, filter.jobIds) : undefined,
      ].filter((condition) => condition !== undefined);
      const query = this.db.select().from(runs).where(and(...conditions)).orderBy(desc(runs.startedAt), desc(runs.id));
      return filter.limit !== undefined ? query.limit(filter.limit) : query;
    });
  }

  runIdsStartingWith(prefix: string, limit = 10): Promise<string[]> {
    return this.guard('find run ids', async () =>
      (await this.db.select({ id: runs.id }).from(runs).where(and(gte(runs.id, prefix), lt(runs.id, `${prefix}\uffff`))).limit(limit)).map((row) => row.id),
    );
  }

  stepsOfRuns(runIds: readonly string[]): Promise<RunStepRow[]> {
    return this.guard('read steps of runs', async () => {
      if (runIds.length === 0) return [];
      return this.db.select().from(runSteps).where(anyOf(runSteps.runId, runIds)).orderBy(asc(runSteps.runId), asc(runSteps.idx), asc(runSteps.id));
    });
  }

  runSteps(runId: string): Promise<RunStepRow[]> {
    return this.guard('read run steps', () => this.db.select().from(runSteps).where(eq(runSteps.runId, runId)).orderBy(asc(runSteps.idx), asc(runSteps.id)));
  }

  importTrajectories(items: readonly ImportedTrajectory[]): Promise<void> {
    return this.guard(`import ${items.length} trajectories`, () =>
      this.db.transaction(async (tx) => {
        // Locks taken in key order, so two imports of overlapping tasks never wait on each other crosswise.
        for (const id of [...new Set(items.map((item) => item.task.id))].sort()) await lockTask(tx, id);
        for (const item of items) {
          await this.writeTrajectory(tx, item.task, item.blobs ?? [], item.nodes, Date.now(), { keepExisting: true });
        }
      }),
    );
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.db.$client.end();
  }

  private async commitIn(tx: Tx, committed: CommitRunInput): Promise<void> {
    const now = Date.now();
    const taskId = committed.task?.id ?? committed.newNodes?.[0]?.taskId;
    if (taskId !== undefined) await lockTask(tx, taskId);
    const input = taskId === undefined ? committed : await mergeBranch(committed, taskId, (task, parentId) => childrenVia((query) => clientOf(tx).query(query), task, parentId));
    await this.writeTrajectory(tx, input.task, input.blobs ?? [], input.newNodes ?? [], now);
    for (const stat of input.nodeStats ?? []) {
      const updated = await tx
        .update(nodes)
        .set({
          hits: sql`${nodes.hits} + ${stat.hit ? 1 : 0}`,
          misses: sql`${nodes.misses} + ${stat.hit ? 0 : 1}`,
          lastUsedAt: stat.usedAt,
          ...(stat.succeeded ? { lastSuccessAt: stat.usedAt } : {}),
        })
        .where(eq(nodes.id, stat.id));
      if (!updated.rowCount) throw new Error(`node ${stat.id} (in nodeStats) does not exist`);
    }
    for (const link of input.nodeLinks ?? []) {
      let state: Record<string, unknown> | undefined;
      if (link.state !== undefined) {
        // The state's text, not the column's decoder: a damaged one must not fail the commit (patchedState leaves it alone).
        const [stored] = await tx.select({ state: sql<string | null>`${nodes.state}` }).from(nodes).where(eq(nodes.id, link.id)).for('update');
        if (!stored) throw new Error(`node ${link.id} (in nodeLinks) does not exist`);
        // Merged here, not with jsonb_set: the state text keeps its key order, as on SQLite.
        state = patchedState(parsedStateText(stored.state), link);
      }
      const changes = {
        ...(link.resumeAtId !== undefined ? { resumeAtId: link.resumeAtId } : {}),
        ...(link.endsRun !== undefined ? { endsRun: link.endsRun } : {}),
        ...(link.endUrl !== undefined ? { endUrl: link.endUrl } : {}),
        ...(state ? { state } : {}),
      };
      if (Object.keys(changes).length === 0) continue;
      const updated = await tx.update(nodes).set(changes).where(eq(nodes.id, link.id));
      if (!updated.rowCount) throw new Error(`node ${link.id} (in nodeLinks) does not exist`);
    }
    const { id, ...finished } = finishedRunColumns(input.run);
    const updated = await tx.update(runs).set(finished).where(eq(runs.id, id));
    if (!updated.rowCount) throw new Error(`run ${id} was never begun (call beginRun first)`);
    const steps = (input.steps ?? []).map((step) => ({ ...NO_IMAGES, ...stripUndefined(step) }));
    if (steps.length > 0) await tx.insert(runSteps).values(steps);
  }

  private async writeTrajectory(tx: Tx, task: TaskRow | undefined, newBlobs: readonly NewBlob[], newNodes: readonly NewNodeRow[], now: number, options: { keepExisting?: boolean } = {}): Promise<void> {
    if (task) {
      const [stored] = await tx.select().from(tasks).where(eq(tasks.id, task.id));
      const row = mergedTask(task, stored);
      const { id, createdAt, ...changes } = row;
      await tx.insert(tasks).values(row).onConflictDoUpdate({ target: tasks.id, set: changes });
      void id;
      void createdAt;
    }
    for (const blob of inHashOrder(newBlobs)) {
      checkBlob(blob);
      await tx.insert(blobs).values({ hash: blob.hash, bytes: blob.bytes, size: blob.bytes.length, createdAt: now }).onConflictDoNothing();
    }
    for (const node of newNodes) {
      const row = withNodeDefaults(node);
      if (!options.keepExisting) {
        await tx.insert(nodes).values(row);
        continue;
      }
      const [stored] = await tx.select({ taskId: nodes.taskId, state: sql<string | null>`${nodes.state}`, endsRun: nodes.endsRun }).from(nodes).where(eq(nodes.id, node.id));
      checkImportClash(node, stored);
      // What runs learned about the stored step since the file was written stays with it.
      const storedState = stored ? parsedStateText(stored.state) : undefined;
      if (stored) row.state = importedState({ state: row.state, endsRun: row.endsRun }, { state: typeof storedState === 'string' ? null : (storedState ?? null), endsRun: stored.endsRun });
      await tx
        .insert(nodes)
        .values(row)
        .onConflictDoUpdate({
          target: nodes.id,
          set: importNodeSet(nodes, (file, stored) => sql`${file} OR ${stored}`),
        });
    }
  }

  private guard<T>(operation: string, fn: () => Promise<T>): Promise<T> {
    return guardStoreAsync(this.location, operation, fn);
  }
}

/**
 * `column = ANY($1)`: one bound array, where inArray binds a parameter per value and a big batch's
 * ids would pass PostgreSQL's 65,535.
 */
function anyOf(column: AnyColumn, values: readonly string[]): SQL {
  return sql`${column} = ANY(${sql.param([...values])}::text[])`;
}

/**
 * Serializes the commits that learn into one task, until the transaction ends. Commits of other
 * tasks go on in parallel. hashtextextended maps the key to the lock's 64-bit space.
 */
async function lockTask(tx: Tx, taskId: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${taskId}, 0))`);
}

/** The pg client a drizzle transaction runs on: raw statements inside it must use this connection. */
function clientOf(tx: Tx): PoolClient {
  return (tx as unknown as { session: { client: PoolClient } }).session.client;
}

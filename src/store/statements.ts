/**
 * Every query the Store runs, built and prepared once per connection: replay calls `children`,
 * `getNode` and `getBlob` on every step, so none of them may re-build SQL.
 */
import { and, asc, count, desc, eq, getTableColumns, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type Database from 'better-sqlite3';
import type { RoteDatabase } from './open.js';
import { finishedRunColumns, UnreadableColumn, type FinishedRun, type NodeRow } from './rows.js';
import { importNodeSet } from './importNodeSet.js';
import { blobs, nodes, runSteps, runs, tasks } from './schema.js';

const p = <N extends string>(name: N): Placeholder<N> => sql.placeholder(name);

/**
 * `{ a: placeholder('a'), ... }` for every key, so an insert binds a whole row by name. Insert
 * values run the column's encoder on a placeholder (JSON, boolean, ...).
 */
function placeholdersFor<const K extends string>(keys: readonly K[]): Record<K, Placeholder<K>> {
  return Object.fromEntries(keys.map((key) => [key, p(key)])) as Record<K, Placeholder<K>>;
}

/**
 * The same for `update().set()`, whose types only take SQL. Such a placeholder is bound raw, with
 * no column encoder: only use it for text and plain integer columns, and pass booleans as 1/0.
 */
const v = <N extends string>(name: N) => sql`${p(name)}`;
function rawPlaceholdersFor<const K extends string>(keys: readonly K[]): Record<K, SQL> {
  return Object.fromEntries(keys.map((key) => [key, v(key)])) as Record<K, SQL>;
}

const nodeColumns = getTableColumns(nodes);
/** A dialect's node columns: each maps its driver's value for that column (PostgreSQL's bigint arrives as text). */
export type NodeColumns = Record<keyof NodeRow, { name: string; mapFromDriverValue(value: unknown): unknown }>;
export const nodeKeys = Object.keys(nodeColumns) as (keyof NodeRow)[];
const stepKeys = (Object.keys(getTableColumns(runSteps)) as (keyof typeof runSteps.$inferSelect)[]).filter(
  (key) => key !== 'id',
);

interface ChildrenParams {
  taskId: string;
  parentId: string | null;
}

interface SubtreeParams {
  taskId: string;
  parentId: string | null;
  limit: number;
}

export function prepareStatements(db: RoteDatabase) {
  const client = db.$client;
  return {
    getTask: db.select().from(tasks).where(eq(tasks.id, p('id'))).prepare(),
    /** Every task with the number of its nodes, by template, then key. */
    listTasks: db
      .select({ ...getTableColumns(tasks), nodes: count(nodes.id) })
      .from(tasks)
      .leftJoin(nodes, eq(nodes.taskId, tasks.id))
      .groupBy(tasks.id)
      .orderBy(asc(tasks.taskTemplate), asc(tasks.id))
      .prepare(),
    taskCount: db.select({ n: count() }).from(tasks).prepare(),
    nodeCount: db.select({ n: count() }).from(nodes).prepare(),
    upsertTask: db
      .insert(tasks)
      .values(placeholdersFor(['id', 'taskTemplate', 'tags', 'startUrl', 'paramNames', 'paramSchema', 'createdAt', 'updatedAt']))
      .onConflictDoUpdate({
        target: tasks.id,
        // createdAt stays; paramNames and paramSchema arrive already merged with the stored ones.
        set: {
          taskTemplate: sql`excluded.task_template`,
          tags: sql`excluded.tags`,
          startUrl: sql`excluded.start_url`,
          paramNames: sql`excluded.param_names`,
          paramSchema: sql`excluded.param_schema`,
          updatedAt: sql`excluded.updated_at`,
        },
      })
      .prepare(),

    getNode: client.prepare<[{ id: string }], Record<string, unknown>>('SELECT * FROM nodes WHERE id = @id') as Database.Statement<[{ id: string }], Record<string, unknown>>,
    /**
     * Raw SQL, mapped by nodeFromDriver: drizzle's own mapping throws on a JSON column that does not
     * parse, which would fail every run of the task over one damaged row.
     * IS, not =, so a null parentId selects the children of the virtual root; it still uses the index.
     * Most recently successful first: the likeliest continuation is tried first. id breaks ties.
     */
    children: client.prepare<[ChildrenParams], Record<string, unknown>>(
      'SELECT * FROM nodes WHERE task_id = @taskId AND parent_id IS @parentId ORDER BY last_success_at DESC NULLS LAST, created_at ASC, id ASC',
    ) as Database.Statement<[ChildrenParams], Record<string, unknown>>,
    insertNode: db.insert(nodes).values(placeholdersFor(nodeKeys)).prepare(),
    /**
     * An import's write: a node already stored (same id) takes the recording's fields, which a
     * reviewed edit may have changed, and keeps what runs learned about it (counters, last use).
     */
    importNode: db
      .insert(nodes)
      .values(placeholdersFor(nodeKeys))
      .onConflictDoUpdate({
        target: nodes.id,
        set: importNodeSet(nodes, (file, stored) => sql`max(${file}, ${stored})`),
      })
      .prepare(),
    recordNodeUse: db
      .update(nodes)
      .set({
        hits: sql`${nodes.hits} + ${p('hit')}`,
        misses: sql`${nodes.misses} + ${p('miss')}`,
        lastUsedAt: v('usedAt'),
        lastSuccessAt: sql`CASE WHEN ${p('succeeded')} THEN ${p('usedAt')} ELSE ${nodes.lastSuccessAt} END`,
      })
      .where(eq(nodes.id, p('id')))
      .prepare(),
    setResumeAt: db
      .update(nodes)
      .set({ resumeAtId: v('resumeAtId') })
      .where(eq(nodes.id, p('id')))
      .prepare(),
    setEndsRun: db
      .update(nodes)
      .set({ endsRun: v('endsRun') }) // 1 or 0
      .where(eq(nodes.id, p('id')))
      .prepare(),
    setEndUrl: db
      .update(nodes)
      .set({ endUrl: v('endUrl') })
      .where(eq(nodes.id, p('id')))
      .prepare(),
    /** A node's state, raw (read, changed by statePatch.ts, and written back inside the commit's transaction). */
    nodeState: client.prepare<[{ id: string }], { state: string | null }>('SELECT state FROM nodes WHERE id = @id') as Database.Statement<[{ id: string }], { state: string | null }>,
    setState: db
      .update(nodes)
      .set({ state: v('state') })
      .where(eq(nodes.id, p('id')))
      .prepare(),
    /**
     * Breadth-first descendants of `parentId` (null: the whole task), at most `limit` of them.
     * Raw SQL because drizzle has no recursive CTE. ORDER BY inside the CTE makes SQLite's queue a
     * priority queue on (depth, createdAt, id), i.e. level by level, oldest first; its LIMIT stops
     * the walk itself, so a huge tree is never read in full.
     */
    subtree: client.prepare<[SubtreeParams], Record<string, unknown>>(`
      WITH RECURSIVE sub(id, depth, created_at) AS (
        SELECT id, 1, created_at FROM nodes WHERE task_id = @taskId AND parent_id IS @parentId
        UNION ALL
        SELECT n.id, sub.depth + 1, n.created_at FROM nodes n JOIN sub ON n.parent_id = sub.id
        WHERE n.task_id = @taskId
        ORDER BY 2, 3, 1
        LIMIT @limit
      )
      SELECT n.* FROM sub JOIN nodes n ON n.id = sub.id
      ORDER BY sub.depth, n.created_at, n.id`) as Database.Statement<[SubtreeParams], Record<string, unknown>>,

    getBlob: db.select({ bytes: blobs.bytes }).from(blobs).where(eq(blobs.hash, p('hash'))).prepare(),
    insertBlob: db
      .insert(blobs)
      .values(placeholdersFor(['hash', 'bytes', 'size', 'createdAt']))
      .onConflictDoNothing()
      .prepare(),

    insertRun: db
      .insert(runs)
      .values({ ...placeholdersFor(['id', 'taskId', 'task', 'mode', 'startedAt', 'pid', 'host', 'jobId', 'params']), status: 'running' })
      .prepare(),
    finishRun: db
      .update(runs)
      .set(
        rawPlaceholdersFor([
          'taskId',
          'status',
          'endedAt',
          'durationMs',
          'agentCalls',
          'cachedSteps',
          'relocatedSteps',
          'agentSteps',
          'modelCalls',
          'inputTokens',
          'outputTokens',
          'error',
          'screenshotHash',
          'events',
          'time',
        ]),
      )
      .where(eq(runs.id, p('id')))
      .prepare(),
    runningRuns: db
      .select({ id: runs.id, pid: runs.pid, host: runs.host })
      .from(runs)
      .where(eq(runs.status, 'running'))
      .prepare(),
    interruptRun: db
      .update(runs)
      .set({ status: 'interrupted', endedAt: v('endedAt'), error: v('error') })
      // Re-checked so a run that finished meanwhile is left alone.
      .where(and(eq(runs.id, p('id')), eq(runs.status, 'running')))
      .prepare(),
    interruptRunsOfJob: db
      .update(runs)
      .set({ status: 'interrupted', endedAt: v('endedAt'), error: v('error') })
      .where(and(eq(runs.jobId, p('jobId')), eq(runs.status, 'running')))
      .prepare(),
    listRuns: db
      .select()
      .from(runs)
      .orderBy(desc(runs.startedAt), desc(runs.id))
      .limit(p('limit'))
      .prepare(),
    insertStep: db.insert(runSteps).values(placeholdersFor(stepKeys)).prepare(),
    runSteps: db
      .select()
      .from(runSteps)
      .where(eq(runSteps.runId, p('runId')))
      .orderBy(asc(runSteps.idx), asc(runSteps.id))
      .prepare(),
  };
}

export type Statements = ReturnType<typeof prepareStatements>;

/** finishRun's values: raw placeholders run no column encoder, so the JSON columns go as their text. */
export function finishRunValues(run: FinishedRun): Required<FinishedRun> {
  const columns = finishedRunColumns(run);
  const text = (value: unknown) => (value === null ? null : JSON.stringify(value));
  return { ...columns, events: text(columns.events), time: text(columns.time) };
}

/**
 * Maps a raw `SELECT * FROM nodes` row (snake_case, driver values) to a NodeRow, as drizzle would,
 * except that a JSON column that does not parse becomes an UnreadableColumn instead of a throw.
 */
export function nodeFromDriver(raw: Record<string, unknown>, columns: NodeColumns = nodeColumns): NodeRow {
  const row: Record<string, unknown> = {};
  for (const key of nodeKeys) {
    const column = columns[key];
    const value = raw[column.name];
    try {
      row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
    } catch (error) {
      row[key] = new UnreadableColumn(column.name, error instanceof Error ? error.message : String(error));
    }
  }
  return row as NodeRow;
}

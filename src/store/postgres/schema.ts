/**
 * The store schema for PostgreSQL: the same tables, columns, keys and indexes as the SQLite schema
 * (../schema.ts), which stays the source of truth; schemaParity.test.ts fails when the two differ.
 * Drizzle has no dialect-neutral table builder, so the tables are written twice, with these
 * choices for the pg types:
 * - epoch-millisecond timestamps are bigint (mode number: safe to 2^53, ms until the year 285,616);
 * - JSON stays in text columns through the same encoder, so a stored row reads back byte for byte
 *   as on SQLite (jsonb would reorder keys, and exports must not differ by store);
 * - blobs are bytea, booleans boolean, the step id an identity column.
 * Migrations in drizzle/postgres/ are generated from this file (`npm run db:generate`).
 * This file imports nothing from the project but the shared vocabulary, so drizzle-kit can load it.
 */
import { bigint, boolean, customType, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { parsedOrNull, runStatuses, slotStatuses, slotTriggers, stepKinds, stepOutcomes } from '../schema.js';

/** JSON in a text column, as ../schema.ts does it (a null binds as SQL NULL, not the text 'null'). */
function json<T>(name: string) {
  return customType<{ data: T; driverData: string | null }>({
    dataType: () => 'text',
    toDriver: (value) => (value === null || value === undefined ? null : JSON.stringify(value)),
    fromDriver: (value) => (value === null ? null : JSON.parse(value)) as T,
  })(name);
}

/** JSON in a text column, read as null when it does not parse, as ../schema.ts's lenientJson does it. */
function lenientJson<T>(name: string) {
  return customType<{ data: T; driverData: string | null }>({
    dataType: () => 'text',
    toDriver: (value) => (value === null || value === undefined ? null : JSON.stringify(value)),
    fromDriver: (value) => parsedOrNull(value) as T,
  })(name);
}

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/** Epoch milliseconds. */
const millis = (name: string) => bigint(name, { mode: 'number' });

export const tasks = pgTable('tasks', {
  id: text('id').primaryKey(),
  taskTemplate: text('task_template').notNull(),
  tags: json<string[]>('tags').notNull(),
  startUrl: text('start_url').notNull(),
  paramNames: json<string[]>('param_names').notNull(),
  paramSchema: json<Record<string, unknown>>('param_schema'),
  createdAt: millis('created_at').notNull(),
  updatedAt: millis('updated_at').notNull(),
});

export const blobs = pgTable('blobs', {
  hash: text('hash').primaryKey(),
  bytes: bytea('bytes').notNull(),
  size: integer('size').notNull(),
  createdAt: millis('created_at').notNull(),
});

export const nodes = pgTable(
  'nodes',
  {
    id: text('id').primaryKey(),
    taskId: text('task_id')
      .notNull()
      .references(() => tasks.id),
    parentId: text('parent_id'),
    resumeAtId: text('resume_at_id'),
    action: json<unknown>('action').notNull(),
    intent: text('intent'),
    url: text('url').notNull(),
    fingerprint: json<unknown>('fingerprint'),
    box: json<unknown>('box'),
    cropHash: text('crop_hash').references(() => blobs.hash),
    cropRect: json<unknown>('crop_rect'),
    masks: json<unknown>('masks'),
    state: json<unknown>('state'),
    endsRun: boolean('ends_run').notNull().default(false),
    endUrl: text('end_url'),
    hits: integer('hits').notNull().default(0),
    misses: integer('misses').notNull().default(0),
    lastUsedAt: millis('last_used_at'),
    lastSuccessAt: millis('last_success_at'),
    createdAt: millis('created_at').notNull(),
  },
  (t) => [index('nodes_task_parent_idx').on(t.taskId, t.parentId)],
);

export const runs = pgTable(
  'runs',
  {
    id: text('id').primaryKey(),
    taskId: text('task_id'),
    task: text('task').notNull(),
    mode: text('mode').notNull(),
    status: text('status', { enum: runStatuses }).notNull(),
    startedAt: millis('started_at').notNull(),
    endedAt: millis('ended_at'),
    durationMs: integer('duration_ms'),
    agentCalls: integer('agent_calls').notNull().default(0),
    modelCalls: integer('model_calls').notNull().default(0),
    inputTokens: integer('input_tokens').notNull().default(0),
    outputTokens: integer('output_tokens').notNull().default(0),
    cachedSteps: integer('cached_steps').notNull().default(0),
    relocatedSteps: integer('relocated_steps').notNull().default(0),
    agentSteps: integer('agent_steps').notNull().default(0),
    error: text('error'),
    pid: integer('pid').notNull(),
    host: text('host'),
    jobId: text('job_id'),
    screenshotHash: text('screenshot_hash'),
    /**
     * What the run's steps do not hold (RunEvents, JSON): the native dialogs and what was done with
     * each, and handovers that no recorded step stands for (an end under other values, a fork).
     */
    events: json<unknown>('events'),
    /** The values the run was given, as a report shows them (secrets masked); see the SQLite schema. */
    params: json<Record<string, string>>('params'),
    /** Where the run's time went (RunTime, JSON); null before it was kept, for a run that never finished, or text that does not parse. */
    time: lenientJson<unknown>('time'),
  },
  (t) => [index('runs_status_idx').on(t.status), index('runs_job_idx').on(t.jobId)],
);

export const runSteps = pgTable(
  'run_steps',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    runId: text('run_id')
      .notNull()
      .references(() => runs.id),
    idx: integer('idx').notNull(),
    nodeId: text('node_id'),
    kind: text('kind', { enum: stepKinds }).notNull(),
    action: json<unknown>('action').notNull(),
    intent: text('intent'),
    outcome: text('outcome', { enum: stepOutcomes }).notNull(),
    reason: text('reason'),
    durationMs: integer('duration_ms').notNull(),
    checkMs: integer('check_ms').notNull(),
    thumbHash: text('thumb_hash'),
    pageHash: text('page_hash'),
    expectedHash: text('expected_hash'),
    actualHash: text('actual_hash'),
    diffHash: text('diff_hash'),
  },
  (t) => [index('run_steps_run_idx').on(t.runId, t.idx)],
);

export const schedules = pgTable('schedules', {
  id: text('id').primaryKey(),
  name: text('name').notNull().unique(),
  cron: text('cron').notNull(),
  timezone: text('timezone').notNull(),
  job: json<unknown>('job').notNull(),
  onFailure: json<unknown>('on_failure'),
  enabled: boolean('enabled').notNull().default(true),
  createdAt: millis('created_at').notNull(),
  updatedAt: millis('updated_at').notNull(),
});

export const scheduleSlots = pgTable(
  'schedule_slots',
  {
    id: text('id').primaryKey(),
    scheduleId: text('schedule_id')
      .notNull()
      .references(() => schedules.id, { onDelete: 'cascade' }),
    slotAt: millis('slot_at').notNull(),
    status: text('status', { enum: slotStatuses }).notNull(),
    trigger: text('trigger', { enum: slotTriggers }).notNull().default('cron'),
    reason: text('reason'),
    startedAt: millis('started_at'),
    endedAt: millis('ended_at'),
    pid: integer('pid'),
    host: text('host'),
    summary: json<unknown>('summary'),
  },
  (t) => [uniqueIndex('schedule_slots_schedule_slot_idx').on(t.scheduleId, t.slotAt), index('schedule_slots_status_idx').on(t.status)],
);

export const proxyNodes = pgTable(
  'proxy_nodes',
  {
    id: text('id').primaryKey(),
    namespace: text('namespace').notNull(),
    shape: text('shape').notNull(),
    parentId: text('parent_id').notNull(),
    levelHash: text('level_hash').notNull(),
    level: text('level').notNull(),
    reply: json<unknown>('reply'),
    hits: integer('hits').notNull().default(0),
    tokensSaved: bigint('tokens_saved', { mode: 'number' }).notNull().default(0),
    createdAt: millis('created_at').notNull(),
    lastHitAt: millis('last_hit_at'),
    depth: integer('depth'),
  },
  (table) => [
    uniqueIndex('proxy_nodes_place').on(table.namespace, table.shape, table.parentId, table.levelHash),
    index('proxy_nodes_lookup').on(table.namespace, table.shape, table.levelHash),
    index('proxy_nodes_depth').on(table.namespace, table.shape, table.depth),
  ],
);

export const proxyTemplates = pgTable(
  'proxy_templates',
  {
    id: text('id').primaryKey(),
    namespace: text('namespace').notNull(),
    shape: text('shape').notNull(),
    depth: integer('depth').notNull(),
    pathHash: text('path_hash').notNull(),
    exemplar: json<unknown>('exemplar').notNull(),
    reply: json<unknown>('reply').notNull(),
    confirmations: integer('confirmations').notNull().default(0),
    refuted: integer('refuted').notNull().default(0),
    hits: integer('hits').notNull().default(0),
    tokensSaved: bigint('tokens_saved', { mode: 'number' }).notNull().default(0),
    lastHitAt: millis('last_hit_at'),
    createdAt: millis('created_at').notNull(),
  },
  (table) => [uniqueIndex('proxy_templates_path').on(table.namespace, table.shape, table.pathHash), index('proxy_templates_lookup').on(table.namespace, table.shape, table.depth)],
);

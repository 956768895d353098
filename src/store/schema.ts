/**
 * The store schema: the single source of truth for the database layout. Migrations in `drizzle/`
 * are generated from this file by `drizzle-kit generate`; never edit the SQL by hand.
 *
 * Conventions:
 * - Timestamps are epoch milliseconds in plain integer columns (cheap to compare and sort).
 * - JSON columns (see jsonColumn.ts) carry parsed values in rows; the caller validates their shape
 *   (the store does not know the action or fingerprint schemas).
 * - This file imports only columnValues.ts, jsonColumn.ts and proxySchema.ts from the project, so
 *   drizzle-kit can load it on its own.
 */
import { blob, customType, index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { json } from './jsonColumn.js';

/**
 * JSON in a text column that is read as null when it does not parse: for a measurement (a run's
 * time) a damaged value is one to leave out, never a reason to fail reading its row.
 */
function lenientJson<T>(name: string) {
  return customType<{ data: T; driverData: string | null }>({
    dataType: () => 'text',
    toDriver: (value) => (value === null || value === undefined ? null : JSON.stringify(value)),
    fromDriver: (value) => parsedOrNull(value) as T,
  })(name);
}

/** JSON text parsed, or null where there is none or it does not parse (lenientJson; the PostgreSQL schema's too). */
export function parsedOrNull(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

import { runStatuses, slotStatuses, slotTriggers, stepKinds, stepOutcomes } from './columnValues.js';

export { runStatuses, slotStatuses, slotTriggers, stepKinds, stepOutcomes } from './columnValues.js';
export type { RunStatus, SlotStatus, StepKind, StepOutcome } from './columnValues.js';

/** One cached task: the key is a hash of the task template and its context (see cache key). */
export const tasks = sqliteTable('tasks', {
  id: text('id').primaryKey(),
  taskTemplate: text('task_template').notNull(),
  tags: json<string[]>('tags').notNull(),
  startUrl: text('start_url').notNull(),
  /** Names of the parameters used by any template stored under this task. */
  paramNames: json<string[]>('param_names').notNull(),
  /** Parameter types (declared, or inferred from how values were typed), name -> spec; validated by the caller. */
  paramSchema: json<Record<string, unknown>>('param_schema'),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
});

/** Content-addressed evidence crops, stored once however many nodes point at them. */
export const blobs = sqliteTable('blobs', {
  hash: text('hash').primaryKey(), // sha256 hex of `bytes`
  bytes: blob('bytes', { mode: 'buffer' }).notNull(),
  size: integer('size').notNull(),
  createdAt: integer('created_at').notNull(),
});

/**
 * The trajectory tree. A node is one recorded step; siblings are alternative continuations.
 * parentId and resumeAtId are deliberately not foreign keys: a commit inserts a whole branch at
 * once and the tree is only ever walked from a task, so ordering constraints would buy nothing.
 */
export const nodes = sqliteTable(
  'nodes',
  {
    id: text('id').primaryKey(), // uuid made by the caller
    taskId: text('task_id')
      .notNull()
      .references(() => tasks.id),
    /** null = a child of the task's virtual root. */
    parentId: text('parent_id'),
    /** After this node, the children of that node are candidates too (a detour re-joining the path). */
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
    endsRun: integer('ends_run', { mode: 'boolean' }).notNull().default(false),
    /** Where a run that ended here ended (templated): a replay ends here only on that page. */
    endUrl: text('end_url'),
    hits: integer('hits').notNull().default(0),
    misses: integer('misses').notNull().default(0),
    lastUsedAt: integer('last_used_at'),
    lastSuccessAt: integer('last_success_at'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('nodes_task_parent_idx').on(t.taskId, t.parentId)],
);

/** One row per run, written at start (status 'running') so a killed process leaves a trace. */
export const runs = sqliteTable(
  'runs',
  {
    id: text('id').primaryKey(),
    taskId: text('task_id'),
    /** The task template, never the raw parameter values. */
    task: text('task').notNull(),
    mode: text('mode').notNull(),
    status: text('status', { enum: runStatuses }).notNull(),
    startedAt: integer('started_at').notNull(),
    endedAt: integer('ended_at'),
    durationMs: integer('duration_ms'),
    agentCalls: integer('agent_calls').notNull().default(0),
    /** Model requests behind the agent calls (retries included), and their tokens. */
    modelCalls: integer('model_calls').notNull().default(0),
    inputTokens: integer('input_tokens').notNull().default(0),
    outputTokens: integer('output_tokens').notNull().default(0),
    cachedSteps: integer('cached_steps').notNull().default(0),
    relocatedSteps: integer('relocated_steps').notNull().default(0),
    agentSteps: integer('agent_steps').notNull().default(0),
    error: text('error'),
    pid: integer('pid').notNull(),
    /** The machine of `pid` (os.hostname()); null for runs stored before hosts were kept. */
    host: text('host'),
    /** The queue job behind a worker's run (pg-boss job id); null for runs started in process. */
    jobId: text('job_id'),
    /** A failed run's last screen (a blob: WebP, secrets painted over), for the report. */
    screenshotHash: text('screenshot_hash'),
    /**
     * What the run's steps do not hold (RunEvents, JSON): the native dialogs and what was done with
     * each, and handovers that no recorded step stands for (an end under other values, a fork).
     */
    events: json<unknown>('events'),
    /**
     * The values the run was given, as a person may read them in a report: a secret's as the mask,
     * and a secret's value inside another value redacted. Null for runs stored before values were kept.
     */
    params: json<Record<string, string>>('params'),
    /**
     * Where the run's time went (the engine's RunTime, JSON; the reader validates it): replayed
     * steps, checks, waits, the agent, the rest. Null for runs stored before it was kept, for runs
     * that never finished (a killed run has no time), and where the text does not parse.
     */
    time: lenientJson<unknown>('time'),
  },
  (t) => [index('runs_status_idx').on(t.status), index('runs_job_idx').on(t.jobId)],
);

export const runSteps = sqliteTable(
  'run_steps',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
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
    /**
     * Images for the report, all blobs with secrets painted over. thumb: the page around the target
     * just before the step (the live crop a cached step's visual check took, the crop an agent step
     * recorded); page: the whole screen the agent saw before the call this step came from. On a
     * diverged row: the recorded crop, the live crop and their diff.
     */
    thumbHash: text('thumb_hash'),
    pageHash: text('page_hash'),
    expectedHash: text('expected_hash'),
    actualHash: text('actual_hash'),
    diffHash: text('diff_hash'),
  },
  (t) => [index('run_steps_run_idx').on(t.runId, t.idx)],
);

/**
 * A task run unattended on a cron schedule. `job` is what to run (task, start URL, where the
 * parameters come from, mode, agent, concurrency, retries; secrets only as the names of the
 * environment variables that hold them); the daemon validates it again before each slot.
 */
export const schedules = sqliteTable('schedules', {
  id: text('id').primaryKey(),
  name: text('name').notNull().unique(),
  /** Five or six cron fields (croner), read in `timezone`. */
  cron: text('cron').notNull(),
  /** An IANA time zone, e.g. Europe/Berlin or UTC. */
  timezone: text('timezone').notNull(),
  job: json<unknown>('job').notNull(),
  /** Who hears of a slot that did not end well: { url } to POST its summary to, or { command } to give it on stdin. */
  onFailure: json<unknown>('on_failure'),
  enabled: integer('enabled', { mode: 'boolean' }).notNull().default(true),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
});

/**
 * One cron slot of a schedule and what became of it: run (succeeded, failed, interrupted by a
 * stop), skipped (the previous slot was still running), or missed (the daemon was down and the
 * catch-up policy passed it over). Written before a slot's job starts, so a killed daemon leaves
 * a 'running' row that the next open marks interrupted.
 */
export const scheduleSlots = sqliteTable(
  'schedule_slots',
  {
    id: text('id').primaryKey(),
    scheduleId: text('schedule_id')
      .notNull()
      .references(() => schedules.id, { onDelete: 'cascade' }),
    /** The slot's time by the cron expression, epoch ms. */
    slotAt: integer('slot_at').notNull(),
    status: text('status', { enum: slotStatuses }).notNull(),
    /** 'cron' for the expression's slots; 'manual' for `rote schedule run-now`, which owes and settles no cron slot. */
    trigger: text('trigger', { enum: slotTriggers }).notNull().default('cron'),
    /** Why a slot was skipped, missed or failed, in words. */
    reason: text('reason'),
    startedAt: integer('started_at'),
    endedAt: integer('ended_at'),
    /** The daemon or worker process that ran it, and its machine (os.hostname()). */
    pid: integer('pid'),
    host: text('host'),
    /** The job's summary (rows, statuses, run ids); never a parameter value. */
    summary: json<unknown>('summary'),
  },
  (t) => [uniqueIndex('schedule_slots_schedule_slot_idx').on(t.scheduleId, t.slotAt), index('schedule_slots_status_idx').on(t.status)],
);

// The proxy's tables (rote proxy) are in proxySchema.ts; exported here so drizzle-kit and the store see one schema.
export { proxyNodes, proxyTemplates } from './proxySchema.js';

import { z } from 'zod';
import { agentByName } from './agentByName.js';
import { isPostgresUrl } from '../store/store.js';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { checkReportFolder } from '../report/writeReport.js';
import { RoteError } from '../errors/roteError.js';
import { Rote } from '../rote.js';
import { unattendedBrowsers } from '../scheduler/browserSupply.js';
import { checkCron, nextSlot } from '../scheduler/cronSlots.js';
import type { JobSpec } from '../scheduler/jobSpec.js';
import { parseOnFailure } from '../scheduler/notify.js';
import { isRecordingFolder, prepareJob } from '../scheduler/prepareJob.js';
import { readSchedule, SCHEDULE_NAME, type Schedule } from '../scheduler/scheduleSpec.js';
import { runSlot, type SlotDeps, type SlotEnded } from '../scheduler/slotRunner.js';
import type { ScheduleRow } from '../store/scheduleStore.js';
import { specFrom, type JobArgs } from './jobArgs.js';
import { openExistingStore } from './storeArgument.js';
import { formatTable } from './table.js';
import { exitOnUsage } from './usage.js';

export type ScheduleIo = { env: NodeJS.ProcessEnv; out: (text: string) => void; err: (text: string) => void };

const processIo = (): ScheduleIo => ({ env: process.env, out: (text) => void process.stdout.write(text), err: (text) => void process.stderr.write(text) });

export type ScheduleAddOptions = JobArgs & { cron: string; tz?: string; onFailure?: string; paused?: boolean; store: string };

/**
 * `rote schedule add <name> <task> --cron EXPR`: checks everything now (the name, the cron
 * expression and time zone, the task, the rows against the task's schema) and stores the
 * schedule; files are kept by absolute path, the task by its key. Secrets are kept as the names of
 * their environment variables, which the daemon reads at each slot.
 */
export async function scheduleAdd(name: string, task: string, options: ScheduleAddOptions, io: ScheduleIo = processIo()): Promise<number> {
  const where = `rote schedule add ${JSON.stringify(name)}`;
  return exitOnUsage(io.err, async () => {
    if (!SCHEDULE_NAME.test(name)) throw new RoteError('invalid-argument', `${where}: the name must be 1 to 64 letters, digits, ., _ or -, starting with a letter or digit`);
    const timezone = options.tz ?? 'UTC';
    checkCron(options.cron, timezone, where);
    if (isPostgresUrl(options.store) && options.cron.trim().split(/\s+/).length > 5) {
      throw new RoteError('invalid-argument', `${where}: cron ${JSON.stringify(options.cron)} has a seconds field; on a PostgreSQL store slots are sent by pg-boss's cron, which fires at most once a minute: give five fields (minute hour day month weekday)`);
    }
    const spec = absolutePaths(specFrom(task, options, where));
    if (spec.report !== undefined) checkReportFolder(spec.report, where);
    const givenOnFailure = options.onFailure === undefined ? null : parseOnFailure(options.onFailure);
    if (givenOnFailure && !givenOnFailure.ok) throw new RoteError('invalid-argument', `${where}: ${givenOnFailure.reason}`);
    const onFailure = givenOnFailure?.value ?? null;
    const rote = await Rote.open({ store: options.store });
    try {
      if (await rote.store.schedules.byName(name)) throw new RoteError('invalid-argument', `${where}: a schedule of that name exists (rote schedule show ${name}); remove it first or pick another name`);
      // Checked as the daemon will, but with stand-ins for secrets: their variables are the daemon's.
      const standIns = Object.fromEntries(Object.values(spec.secrets).map((variable) => [variable, io.env[variable] || 'set-at-run-time']));
      const job = await prepareJob(spec, { store: rote.store, env: { ...io.env, ...standIns }, agents: agentByName }, where);
      const stored: JobSpec = job.fromFolder ? spec : { ...spec, task: job.task.id };
      const now = Date.now();
      await rote.store.schedules.add({ id: randomUUID(), name, cron: options.cron, timezone, job: stored, onFailure, enabled: !options.paused, createdAt: now, updatedAt: now });
      const unset = Object.entries(spec.secrets).filter(([, variable]) => !io.env[variable]);
      io.out(`Added schedule "${name}": "${job.task.taskTemplate}" (${job.rows.length} row${job.rows.length === 1 ? '' : 's'}) at ${options.cron} (${timezone}), next ${describeNext(options.cron, timezone)}${options.paused ? ', paused' : ''}.\n`);
      for (const [secretName, variable] of unset) io.out(`Note: secret ${secretName} is read from ${variable}, which is not set here; set it in the daemon's environment.\n`);
      return 0;
    } finally {
      await rote.close();
    }
  });
}

export function scheduleList(options: { store: string; json?: boolean }, io: ScheduleIo = processIo()): Promise<number> {
  return exitOnUsage(io.err, async () => {
    const store = await openExistingStore(options.store, 'schedule ls');
    try {
      const rows = [];
      for (const row of await store.schedules.list()) {
        const last = (await store.schedules.slots(row.id, 1))[0];
        rows.push({ name: row.name, cron: row.cron, timezone: row.timezone, enabled: row.enabled, next: row.enabled ? describeNext(row.cron, row.timezone) : 'paused', last: last ? `${last.status} ${new Date(last.slotAt).toISOString()}` : 'never', task: taskOf(row) });
      }
      if (options.json) io.out(`${JSON.stringify(rows)}\n`);
      else if (rows.length === 0) io.out('No schedules. Add one with rote schedule add <name> <task> --cron EXPR.\n');
      else io.out(`${formatTable(['name', 'cron', 'time zone', 'next', 'last slot', 'task'], rows.map((row) => [row.name, row.cron, row.timezone, row.next, row.last, row.task]))}\n`);
      return 0;
    } finally {
      await store.close();
    }
  });
}

export function scheduleShow(name: string, options: { store: string; json?: boolean; limit?: number }, io: ScheduleIo = processIo()): Promise<number> {
  return exitOnUsage(io.err, async () => {
    const store = await openExistingStore(options.store, 'schedule show');
    try {
      const row = existing(await store.schedules.byName(name), name, 'show');
      const slots = await store.schedules.slots(row.id, options.limit ?? 20);
      if (options.json) {
        io.out(`${JSON.stringify({ ...row, slots })}\n`);
        return 0;
      }
      const read = readSchedule(row);
      io.out(`Schedule "${row.name}": ${row.cron} (${row.timezone}), ${row.enabled ? `next ${describeNext(row.cron, row.timezone)}` : 'paused'}\n`);
      io.out(`Job: ${JSON.stringify(row.job)}\n`);
      if (row.onFailure) io.out(`On failure: ${JSON.stringify(row.onFailure)}\n`);
      if (!read.ok) io.out(`Not runnable: ${read.reason}\n`);
      io.out(slots.length === 0 ? 'No slot yet.\n' : `${formatTable(['slot', 'status', 'rows', 'agent calls', 'reason'], slots.map((slot) => [new Date(slot.slotAt).toISOString(), slot.status, rowsOf(slot.summary), agentCallsOf(slot.summary), slot.reason ?? '']))}\n`);
      return 0;
    } finally {
      await store.close();
    }
  });
}

export function scheduleRemove(name: string, options: { store: string }, io: ScheduleIo = processIo()): Promise<number> {
  return exitOnUsage(io.err, async () => {
    const store = await openExistingStore(options.store, 'schedule rm');
    try {
      if (!(await store.schedules.remove(name))) existing(undefined, name, 'rm');
      io.out(`Removed schedule "${name}" and the record of its slots.\n`);
      return 0;
    } finally {
      await store.close();
    }
  });
}

export function schedulePause(name: string, enabled: boolean, options: { store: string }, io: ScheduleIo = processIo()): Promise<number> {
  const verb = enabled ? 'resume' : 'pause';
  return exitOnUsage(io.err, async () => {
    const store = await openExistingStore(options.store, `schedule ${verb}`);
    try {
      if (!(await store.schedules.setEnabled(name, enabled))) existing(undefined, name, verb);
      io.out(enabled ? `Resumed "${name}": slots from now on run; none is owed for the pause.\n` : `Paused "${name}": no slot runs until rote schedule resume ${name}.\n`);
      return 0;
    } finally {
      await store.close();
    }
  });
}

/** `rote schedule run-now <name>`: one slot now, in this process, recorded like the daemon's. */
export function scheduleRunNow(name: string, options: { store: string; json?: boolean }, io: ScheduleIo = processIo()): Promise<number> {
  return exitOnUsage(io.err, async () => {
    await (await openExistingStore(options.store, 'schedule run-now')).close();
    const rote = await Rote.open({ store: options.store });
    const browsers = unattendedBrowsers();
    try {
      const row = existing(await rote.store.schedules.byName(name), name, 'run-now');
      const read = readSchedule(row);
      if (!read.ok) throw new RoteError('invalid-argument', `rote schedule run-now: ${read.reason}`);
      // One slot of a schedule at a time, whoever runs it: the daemon's slot under way is not doubled.
      if (await rote.store.schedules.isRunning(row.id)) throw new RoteError('invalid-argument', `rote schedule run-now: a slot of "${name}" is running now (rote schedule show ${name}); run it again when that one has ended`);
      const log = (line: string) => (options.json ? undefined : io.out(`${line}\n`));
      const ended = await runSlotHere({ rote, env: io.env, agents: agentByName, browsers, log }, options.store, read.value, row);
      if (!ended) throw new RoteError('internal', `rote schedule run-now: the slot was taken by another process`);
      if (options.json) io.out(`${JSON.stringify(ended)}\n`);
      return ended.status === 'succeeded' ? 0 : 1;
    } finally {
      await browsers.close();
      await rote.close();
    }
  });
}

/** A run-now slot: its rows in this process on SQLite, through the queue (the workers) on PostgreSQL. */
async function runSlotHere(deps: SlotDeps, store: string, schedule: Schedule, row: ScheduleRow): Promise<SlotEnded | undefined> {
  if (!isPostgresUrl(store)) return runSlot(deps, schedule, row, Date.now(), 'manual');
  const { JobQueue } = await import('../scheduler/queue/jobQueue.js');
  const { runJobOnQueue } = await import('../scheduler/queue/runJobOnQueue.js');
  const queue = await JobQueue.open(store);
  try {
    return await runSlot({ ...deps, runRows: (job, stop) => runJobOnQueue(job, queue, deps.rote.store, stop ? { stop } : {}) }, schedule, row, Date.now(), 'manual');
  } finally {
    await queue.stop({ graceful: false });
  }
}

function existing(row: ScheduleRow | undefined, name: string, verb: string): ScheduleRow {
  if (!row) throw new RoteError('invalid-argument', `rote schedule ${verb}: no schedule is named ${JSON.stringify(name)} (rote schedule ls lists them)`);
  return row;
}

/** Files by absolute path: the daemon may run from another directory. */
function absolutePaths(spec: JobSpec): JobSpec {
  return {
    ...spec,
    ...(spec.rowsFile ? { rowsFile: resolve(spec.rowsFile) } : {}),
    ...(spec.paramsFile ? { paramsFile: resolve(spec.paramsFile) } : {}),
    ...(spec.report ? { report: resolve(spec.report) } : {}),
    ...(isRecordingFolder(spec.task) ? { task: resolve(spec.task) } : {}),
  };
}

function describeNext(cron: string, timezone: string): string {
  const next = nextSlot(cron, timezone, Date.now());
  return next === undefined ? 'never' : new Date(next).toISOString();
}

/** The task a stored schedule runs, as shown: read through the schedule's own schema, '?' when it does not read. */
function taskOf(row: ScheduleRow): string {
  const read = readSchedule(row);
  if (!read.ok) return '? (not valid)';
  const task = read.value.job.task;
  return task.length > 40 ? `${task.slice(0, 39)}…` : task;
}

/** What `show` reads of a slot's stored summary; a summary that does not read shows nothing. */
const storedTotals = z.object({ rows: z.number(), succeeded: z.number(), agentCalls: z.number() });

function rowsOf(summary: unknown): string {
  const totals = storedTotals.safeParse(summary);
  return totals.success ? `${totals.data.succeeded}/${totals.data.rows}` : '';
}

function agentCallsOf(summary: unknown): number | string {
  const totals = storedTotals.safeParse(summary);
  return totals.success ? totals.data.agentCalls : '';
}

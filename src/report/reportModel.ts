import type { NodeRow, RunRow, RunStepRow } from '../store/rows.js';
import type { RunStatus } from '../store/columnValues.js';
import type { SlotRow } from '../store/scheduleStore.js';
import type { ProxyNamespaceTotals } from '../store/conversationStore.js';
import type { Store } from '../store/store.js';
import { runEventsSchema, type RunEvents } from '../engine/runEvents.js';
import { runTimeSchema, type RunTime } from '../engine/runTime.js';
import { describeStored, groupBy, targetOf, treeOf, type ReportNode } from './reportTree.js';

/** How a step came about, as a person reads it: a cached step right after the agent's is where the run re-joined the recorded path. */
export const reportStepKinds = ['cached', 'relocated', 'agent', 'rejoined'] as const;
export type ReportStepKind = (typeof reportStepKinds)[number];

export type ReportStep = {
  index: number;
  kind: ReportStepKind;
  /** The action as stored (parameter values as their templates). */
  action: string;
  intent: string | null;
  /** Role and accessible name of the element acted on, as recorded. */
  target: string | null;
  durationMs: number;
  thumb: string | null;
  /** The screen the agent saw before the call this step came from. */
  page: string | null;
};

export type ReportDivergence = {
  /** The step (from 0) that could not be done from the cache. */
  index: number;
  nodeId: string | null;
  /** The recorded step that could not be shown safe; null where none stands for the divergence (an end under other values). */
  action: string | null;
  intent: string | null;
  target: string | null;
  reason: string;
  expected: string | null;
  actual: string | null;
  diff: string | null;
};

/** A native dialog of the run and what was done with it (see engine/runEvents.ts). */
export type ReportDialog = NonNullable<RunEvents['dialogs']>[number];

export type ReportRun = {
  id: string;
  task: string;
  taskId: string | null;
  mode: string;
  status: RunStatus;
  startedAt: number;
  durationMs: number | null;
  agentCalls: number;
  modelCalls: number;
  tokens: number;
  error: string | null;
  screenshot: string | null;
  steps: ReportStep[];
  divergences: ReportDivergence[];
  dialogs: ReportDialog[];
  counts: Record<ReportStepKind, number>;
  schedules: string[];
  /** The values the run was given (secrets masked), in the order given; null for runs stored before values were kept. */
  values: [name: string, value: string][] | null;
  /** Where the run's time went; null for runs stored before it was kept, runs that never finished, and a record that does not read as one. */
  time: RunTime | null;
};

export type { ReportNode } from './reportTree.js';

export type ReportTask = { id: string; template: string; tags: string[]; startUrl: string; paramNames: string[]; roots: ReportNode[]; nodeCount: number };

export type ReportSlot = { id: string; slotAt: number; status: SlotRow['status']; trigger: SlotRow['trigger']; reason: string | null; startedAt: number | null; endedAt: number | null; runIds: string[] };

export type ReportSchedule = { name: string; cron: string; timezone: string; enabled: boolean; task: string; slots: ReportSlot[] };

export type ReportModel = {
  generatedAt: number;
  /** What the report covers, in words ("runs since 2026-11-01 of schedule nightly"). */
  scope: string;
  runs: ReportRun[];
  tasks: ReportTask[];
  schedules: ReportSchedule[];
  /** What `rote proxy` served and holds, per namespace; empty in a report of chosen runs, tasks or a schedule. */
  proxy: ProxyNamespaceTotals[];
};

export type ReportFilter = { runIds?: readonly string[]; since?: number; scheduleName?: string; taskIds?: readonly string[] };

/** Slots read per schedule: a night's worth of seconds-level slots would otherwise swamp the page. */
const SLOTS_PER_SCHEDULE = 500;
/** Nodes read per task for its trajectory tree. */
const NODES_PER_TASK = 5000;

/** Reads what a report shows from the store. Never writes. */
export async function loadReport(store: Store, filter: ReportFilter, now = Date.now()): Promise<ReportModel> {
  const schedules: ReportSchedule[] = [];
  for (const row of (await store.schedules.list()).filter((row) => filter.scheduleName === undefined || row.name === filter.scheduleName)) {
    schedules.push({
      name: row.name,
      cron: row.cron,
      timezone: row.timezone,
      enabled: row.enabled,
      task: taskOfJob(row.job),
      slots: (await store.schedules.slots(row.id, SLOTS_PER_SCHEDULE)).map((slot) => ({
        id: slot.id,
        slotAt: slot.slotAt,
        status: slot.status,
        trigger: slot.trigger,
        reason: slot.reason,
        startedAt: slot.startedAt,
        endedAt: slot.endedAt,
        runIds: runIdsOfSummary(slot.summary),
      })),
    });
  }
  const schedulesOfRun = new Map<string, string[]>();
  for (const schedule of schedules) for (const slot of schedule.slots) for (const id of slot.runIds) schedulesOfRun.set(id, [...new Set([...(schedulesOfRun.get(id) ?? []), schedule.name])]);

  const scheduleRunIds = filter.scheduleName !== undefined ? [...schedulesOfRun.keys()] : undefined;
  const ids = intersectIds(filter.runIds, scheduleRunIds);
  const rows = ids && ids.length === 0 ? [] : await store.findRuns({ ...(ids ? { ids } : {}), ...(filter.since !== undefined ? { since: filter.since } : {}), ...(filter.taskIds ? { taskIds: filter.taskIds } : {}) });
  const stepsByRun = groupBy(await store.stepsOfRuns(rows.map((run) => run.id)), (step) => step.runId);

  const taskIds = [...new Set(rows.flatMap((run) => (run.taskId ? [run.taskId] : [])))];
  const nodesById = new Map<string, NodeRow>();
  const tasks: ReportTask[] = [];
  for (const id of taskIds) {
    const task = await store.getTask(id);
    if (!task) continue;
    const nodes = await store.subtree(id, null, NODES_PER_TASK);
    for (const node of nodes) nodesById.set(node.id, node);
    tasks.push({ id, template: task.taskTemplate, tags: task.tags, startUrl: task.startUrl, paramNames: task.paramNames, roots: treeOf(nodes), nodeCount: nodes.length });
  }

  const runs = rows.map((run) => reportRun(run, stepsByRun.get(run.id) ?? [], nodesById, schedulesOfRun.get(run.id) ?? []));
  // A report shows the schedules it was asked for, or those that made one of its runs: a batch's report is not a store's inventory.
  const inReport = new Set(runs.flatMap((run) => run.schedules));
  const shown = filter.scheduleName !== undefined ? schedules : schedules.filter((schedule) => inReport.has(schedule.name));
  // The proxy's traffic is no run's: it belongs in a report of the store, not of chosen runs.
  const chosen = filter.runIds !== undefined || filter.scheduleName !== undefined || filter.taskIds !== undefined;
  const proxy = chosen ? [] : await store.conversations.namespaceTotals();
  return { generatedAt: now, scope: describeScope(filter), runs, tasks, schedules: shown, proxy };
}

function reportRun(run: RunRow, rows: RunStepRow[], nodes: ReadonlyMap<string, NodeRow>, schedules: string[]): ReportRun {
  const steps: ReportStep[] = [];
  // A record whose events do not read (damaged, or a newer version's) shows none rather than failing the report.
  const events = runEventsSchema.safeParse(run.events ?? {});
  const recorded = events.success ? events.data : {};
  const divergences: ReportDivergence[] = (recorded.handovers ?? []).map((handover) => ({ index: handover.step, nodeId: null, action: null, intent: handover.intent ?? null, target: null, reason: handover.reason, expected: null, actual: null, diff: null }));
  for (const row of rows) {
    const node = row.nodeId ? nodes.get(row.nodeId) : undefined;
    const target = targetOf(node);
    if (row.outcome === 'diverged') {
      divergences.push({ index: row.idx, nodeId: row.nodeId, action: describeStored(row.action), intent: row.intent, target, reason: row.reason ?? '', expected: row.expectedHash, actual: row.actualHash, diff: row.diffHash });
      continue;
    }
    const previous = steps.at(-1);
    // Re-joined: the first step from the cache after the agent's, as recorded (a relocated one stays relocated).
    const kind: ReportStepKind = row.kind === 'cached' && previous?.kind === 'agent' ? 'rejoined' : row.kind;
    steps.push({ index: row.idx, kind, action: describeStored(row.action), intent: row.intent, target, durationMs: row.durationMs, thumb: row.thumbHash, page: row.pageHash });
  }
  const counts = Object.fromEntries(reportStepKinds.map((kind) => [kind, steps.filter((step) => step.kind === kind).length])) as Record<ReportStepKind, number>;
  return {
    id: run.id,
    task: run.task,
    taskId: run.taskId,
    mode: run.mode,
    status: run.status,
    startedAt: run.startedAt,
    durationMs: run.durationMs,
    agentCalls: run.agentCalls,
    modelCalls: run.modelCalls,
    tokens: run.inputTokens + run.outputTokens,
    error: run.error,
    screenshot: run.screenshotHash,
    steps,
    divergences: divergences.sort((a, b) => a.index - b.index),
    dialogs: recorded.dialogs ?? [],
    counts,
    schedules,
    values: valuesOf(run.params),
    time: timeOf(run.time),
  };
}

/** A record's time; one that does not read as a run's time (damaged, a newer version's) shows none rather than failing the report. */
function timeOf(time: unknown): RunTime | null {
  const read = runTimeSchema.safeParse(time);
  return read.success ? read.data : null;
}

/** A record's values as name and text; a column that does not read as one (a hand-edited row) shows none. */
function valuesOf(params: unknown): [string, string][] | null {
  if (params === null || typeof params !== 'object' || Array.isArray(params)) return null;
  return Object.entries(params).map(([name, value]) => [name, typeof value === 'string' ? value : JSON.stringify(value)]);
}

function taskOfJob(job: unknown): string {
  const task = (job as { task?: unknown } | null)?.task;
  return typeof task === 'string' ? task : '';
}

/** The runs a slot's job made, from its stored summary (every attempt; older summaries list the last attempt of each row). */
function runIdsOfSummary(summary: unknown): string[] {
  const value = summary as { runIds?: unknown; results?: unknown } | null;
  if (Array.isArray(value?.runIds)) return value.runIds.filter((id): id is string => typeof id === 'string');
  if (!Array.isArray(value?.results)) return [];
  return value.results.flatMap((row: { runId?: unknown }) => (typeof row?.runId === 'string' ? [row.runId] : []));
}

function intersectIds(a: readonly string[] | undefined, b: readonly string[] | undefined): readonly string[] | undefined {
  if (!a) return b;
  if (!b) return a;
  const inB = new Set(b);
  return a.filter((id) => inB.has(id));
}

function describeScope(filter: ReportFilter): string {
  const parts = [
    filter.runIds ? `${filter.runIds.length} chosen run${filter.runIds.length === 1 ? '' : 's'}` : 'all runs',
    filter.since !== undefined ? `since ${new Date(filter.since).toISOString().slice(0, 16).replace('T', ' ')} UTC` : '',
    filter.scheduleName !== undefined ? `of schedule "${filter.scheduleName}"` : '',
    filter.taskIds ? `of ${filter.taskIds.length === 1 ? 'one task' : `${filter.taskIds.length} tasks`}` : '',
  ];
  return parts.filter(Boolean).join(' ');
}

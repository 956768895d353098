import type { Action } from '../actions/action.js';
import type { TaskIdentity } from '../params/taskKey.js';
import type { BoundParams } from '../params/boundParams.js';
import type { ParamSchema } from '../params/paramType.js';
import { learnedSchema } from './learnedSchema.js';
import type { NewNodeRow, NodeLink, NodeRow, NodeStat } from '../store/rows.js';
import { nodeFromRow, storedState, type TrajectoryNode } from '../trajectory/trajectoryNode.js';
import { sameStep } from '../trajectory/sameStep.js';
import type { Store } from '../store/store.js';
import { namesSetBy, namesUsedBy } from './paramBindings.js';
import { learnFromPath, type PathRun } from './pathLearning.js';
import type { RunEvents } from './runEvents.js';
import { guardPiecesAskedTwice } from './pieceGuards.js';
import type { RunImages } from './runImages.js';
import type { RunResult } from './runResult.js';
import { withPatch, type NodePatch } from '../trajectory/nodeBuilder.js';
import type { TrajectoryView } from './trajectoryView.js';
import { messageOf } from '../errors/messageOf.js';

/** Everything one run leaves behind, gathered by the run loop. */
export type RunRecord = {
  store: Store;
  identity: TaskIdentity;
  params: BoundParams;
  /** Parameter types the caller declared for this run. */
  declaredSchema: ParamSchema;
  valueHashes: Readonly<Record<string, string>>;
  result: RunResult;
  view: TrajectoryView;
  /** The node behind each step of the result, by index. */
  stepNodes: readonly string[];
  /** Each step's action with parameter values as templates, by index: what is stored. */
  storedActions: readonly Action[];
  stats: readonly NodeStat[];
  links: readonly NodeLink[];
  crops: ReadonlyMap<string, Buffer>;
  /** The run's pictures for the report, encoded. */
  images: RunImages;
  /** What the run saw that path learning reads (RunLedger.seen). */
  seen: PathSightings;
};

/** What a run saw of values on the page, and where it met forks. */
export type PathSightings = {
  /** For the agent's steps, by index: parameters a form control showed just before it acted, and once it had. */
  shown: ReadonlyMap<number, { before: readonly string[]; after: readonly string[] }>;
  /** The agent said done after the last step. */
  endedByAgent: boolean;
  /** That end is new on the last step's node. */
  newEnd: boolean;
  forks: { steps: ReadonlySet<string>; ends: ReadonlySet<string> };
};

/**
 * Writes the run in one transaction: its record and steps, the use counts of the cached nodes,
 * and, for a run that ended well, its new nodes and their crops. A failed or diverged run, or
 * one with no agent action, adds no trajectory.
 */
export async function commitRun(record: RunRecord): Promise<void> {
  const { store, identity, result, view } = record;
  const endedWell = result.status === 'replayed' || result.status === 'mixed' || result.status === 'agent';
  const keepTrajectory = endedWell && view.newNodes.length > 0;
  const branch = finishBranch(record, endedWell, keepTrajectory);
  const usedCrops = new Set(branch.newNodes.map((node) => node.cropHash).filter((hash): hash is string => hash !== null));
  const now = Date.now();
  const existingTask = await store.getTask(identity.key);
  await store.commitRun({
    sameStep: sameStoredStep,
    ...(keepTrajectory || existingTask ? { task: taskRow(record, branch.newNodes, existingTask?.createdAt ?? now, now) } : {}),
    newNodes: branch.newNodes.map((node) => toRow(node, now)),
    blobs: [...[...record.crops].filter(([hash]) => usedCrops.has(hash)).map(([hash, bytes]) => ({ hash, bytes })), ...record.images.blobs],
    nodeStats: record.stats.filter((stat) => !view.isNew(stat.id)),
    // Links change stored nodes: only a run that ended well may make them.
    nodeLinks: result.status !== 'failed' && result.status !== 'diverged' ? [...record.links, ...branch.links] : [],
    run: { ...runRow(record, now, result.error ?? null), screenshotHash: record.images.screenshotHash ?? null },
    steps: [...stepRows(record, keepTrajectory), ...divergenceRows(record)],
  });
}

/**
 * The run's new nodes as they are stored, and what stored nodes learn: the pieces guarded
 * (pieceGuards.ts), then what the path teaches about values (pathLearning.ts), each returned as
 * patches and applied to copies. The run's own nodes are not changed.
 */
function finishBranch(record: RunRecord, endedWell: boolean, keepTrajectory: boolean): { newNodes: TrajectoryNode[]; links: NodeLink[] } {
  const { view } = record;
  const guards = keepTrajectory ? guardPiecesAskedTwice(stepsOf(record), (node) => view.isNew(node.id), record.valueHashes, record.params) : new Map<string, NodePatch>();
  const guarded = (node: TrajectoryNode) => withPatch(node, guards.get(node.id));
  const lessons = endedWell ? learnFromPath(pathOf(record, guarded)) : { patches: new Map<string, NodePatch>(), links: [] };
  const finished = (node: TrajectoryNode) => withPatch(guarded(node), lessons.patches.get(node.id));
  return { newNodes: keepTrajectory ? view.newNodes.map(finished) : [], links: lessons.links };
}

function taskRow(record: RunRecord, newNodes: readonly TrajectoryNode[], createdAt: number, now: number) {
  const { identity } = record;
  return {
    id: identity.key,
    taskTemplate: identity.template,
    tags: identity.tags,
    startUrl: identity.startUrl,
    // A value set by clicks is as required as a typed one: a run without it is refused before it starts.
    paramNames: [...new Set(newNodes.flatMap((node) => [...namesUsedBy(node), ...namesSetBy(node)]))],
    paramSchema: learnedSchema(record.declaredSchema, newNodes, record.params.secretNames),
    createdAt,
    updatedAt: now,
  };
}

function stepRows(record: RunRecord, keepTrajectory: boolean) {
  const { result, view } = record;
  return result.steps.map((step) => {
    const nodeId = record.stepNodes[step.index] ?? null;
    return {
      runId: result.runId,
      idx: step.index,
      nodeId: nodeId && (keepTrajectory || !view.isNew(nodeId)) ? nodeId : null,
      kind: step.kind,
      action: record.storedActions[step.index] ?? step.action,
      intent: step.intent ?? null,
      outcome: 'ok' as const,
      reason: null,
      durationMs: step.durationMs,
      checkMs: step.checkMs,
      ...record.images.steps.get(step.index),
    };
  });
}

/** Each divergence is kept with the step it stopped, so a report can show where and why. */
function divergenceRows(record: RunRecord) {
  const { result } = record;
  return result.divergences.flatMap((divergence, index) => (divergence.action ? [{ ...divergence, images: record.images.divergences.get(index) }] : [])).map((divergence) => ({
    ...divergence.images,
    runId: result.runId,
    idx: divergence.step,
    nodeId: divergence.nodeId ?? null,
    kind: 'cached' as const,
    action: divergence.action,
    intent: divergence.intent ?? null,
    outcome: 'diverged' as const,
    reason: divergence.reason,
    durationMs: 0,
    checkMs: 0,
  }));
}

/** Closes the run record as failed when the full commit could not be written. */
export async function markRunFailed(record: Pick<RunRecord, 'store' | 'result'>, cause: unknown): Promise<void> {
  try {
    await record.store.commitRun({
      run: {
        ...runRow({ ...record, identity: undefined }, Date.now(), `the run's commit failed: ${messageOf(cause)}`),
        status: 'failed',
      },
    });
  } catch {
    // The store itself is gone; the next open marks the run interrupted.
  }
}

/** The engine's rule for an equal step, on stored rows: a row that cannot be read stands for nothing. */
function sameStoredStep(stored: NodeRow, fresh: NodeRow): boolean {
  const a = nodeFromRow(stored);
  const b = nodeFromRow(fresh);
  return a.ok && b.ok && sameStep(a.value, b.value);
}

function runRow(record: { result: RunResult; identity: TaskIdentity | undefined }, now: number, error: string | null) {
  const { result } = record;
  return {
    events: eventsOf(result),
    id: result.runId,
    taskId: record.identity?.key ?? null,
    status: result.status,
    endedAt: now,
    durationMs: result.durationMs,
    time: result.time,
    agentCalls: result.agentCalls,
    modelCalls: result.usage.modelCalls,
    inputTokens: result.usage.inputTokens,
    outputTokens: result.usage.outputTokens,
    cachedSteps: result.cachedSteps,
    relocatedSteps: result.relocatedSteps,
    agentSteps: result.agentSteps,
    error,
  };
}

/** What the run record keeps beside the steps: its dialogs, and the divergences no step row holds (they have no recorded action). */
function eventsOf(result: RunResult): RunEvents | null {
  const handovers = result.divergences.filter((divergence) => !divergence.action).map((divergence) => ({ step: divergence.step, reason: divergence.reason, ...(divergence.intent ? { intent: divergence.intent } : {}) }));
  const events: RunEvents = { ...(result.dialogs?.length ? { dialogs: result.dialogs } : {}), ...(handovers.length > 0 ? { handovers } : {}) };
  return Object.keys(events).length > 0 ? events : null;
}

/** The run's path as path learning reads it: each step's node, whether it is new, and what the agent saw. */
function pathOf(record: RunRecord, nodeOf: (node: TrajectoryNode) => TrajectoryNode): PathRun {
  const steps = record.stepNodes.flatMap((id, index) => {
    const stored = record.view.node(id);
    if (!stored) return [];
    const node = nodeOf(stored);
    const shown = record.seen.shown.get(index);
    return [{ node, isNew: record.view.isNew(id), byAgent: record.result.steps[index]?.kind === 'agent', ...(shown ? { shownBefore: shown.before, shownAfter: shown.after } : {}) }];
  });
  return { steps, params: record.params, valueHashes: record.valueHashes, endedByAgent: record.seen.endedByAgent, newEnd: record.seen.newEnd, forks: record.seen.forks };
}

/** The nodes behind the run's steps, in order. */
function stepsOf(record: RunRecord): TrajectoryNode[] {
  return record.stepNodes.map((id) => record.view.node(id)).filter((node): node is TrajectoryNode => node !== undefined);
}

function toRow(node: TrajectoryNode, now: number): NewNodeRow {
  return {
    id: node.id,
    taskId: node.taskId,
    parentId: node.parentId,
    resumeAtId: node.resumeAtId,
    action: node.action,
    intent: node.intent,
    url: node.url,
    fingerprint: node.fingerprint,
    box: node.box,
    cropHash: node.cropHash,
    cropRect: node.cropRect,
    masks: node.masks,
    ...storedState(node.state),
    endsRun: node.endsRun,
    hits: 1,
    lastUsedAt: now,
    lastSuccessAt: now,
    createdAt: now,
  };
}

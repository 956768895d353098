import { randomUUID } from 'node:crypto';
import type { Action } from '../actions/action.js';
import type { NodeState, TrajectoryNode } from './trajectoryNode.js';

/**
 * The one module that writes a node. A step's node is built once from its evidence and what
 * recording it learned (newNode); what a run learns of a node later (its navigation, dialogs,
 * the condition it waited for, where it ends or re-joins, what the commit learns of values) is a
 * NodePatch, applied here. A layering test keeps every other module from assigning to a node.
 */

/** A change to a node's state: a key given as undefined is removed. */
export type StatePatch = { [K in keyof NodeState]?: NodeState[K] | undefined };

export type NodePatch = {
  state?: StatePatch;
  action?: Action;
  endsRun?: true;
  resumeAtId?: string | null;
};

/** What the page showed of a step when it was recorded (see engine/evidence.ts). */
export type NodeEvidence = Pick<TrajectoryNode, 'url' | 'fingerprint' | 'box' | 'cropRect' | 'masks' | 'state'>;

/** A new node for a recorded step: its evidence, with what recording it learned on top of the evidence's state. */
export function newNode(input: {
  taskId: string;
  parentId: string | null;
  action: Action;
  intent: string | undefined;
  evidence: NodeEvidence;
  cropHash: string | null;
  learned?: StatePatch;
}): TrajectoryNode {
  const { evidence } = input;
  return {
    id: randomUUID(),
    taskId: input.taskId,
    parentId: input.parentId,
    resumeAtId: null,
    action: input.action,
    intent: input.intent ?? null,
    url: evidence.url,
    fingerprint: evidence.fingerprint,
    box: evidence.box,
    cropHash: input.cropHash,
    cropRect: evidence.cropRect,
    masks: evidence.masks,
    state: patchedState(evidence.state, input.learned ?? {}),
    endsRun: false,
    lastSuccessAt: null,
  };
}

/** `state` with `patch` applied, as a new object. */
export function patchedState(state: NodeState, patch: StatePatch): NodeState {
  const next: Record<string, unknown> = { ...state };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) delete next[key];
    else next[key] = value;
  }
  return next as NodeState;
}

/** Applies a patch to a node of this run (a new node, or the run's copy of a stored one). */
export function patchNode(node: TrajectoryNode, patch: NodePatch): void {
  if (patch.state) node.state = patchedState(node.state, patch.state);
  if (patch.action) node.action = patch.action;
  if (patch.endsRun) node.endsRun = true;
  if (patch.resumeAtId !== undefined) node.resumeAtId = patch.resumeAtId;
}

/** `node` with `patch` applied, as a new node (the commit's way: it finishes a branch without changing the run's nodes). */
export function withPatch(node: TrajectoryNode, patch: NodePatch | undefined): TrajectoryNode {
  if (!patch) return node;
  const next = { ...node };
  patchNode(next, patch);
  return next;
}

/** The patch that turns `before`'s state into `after`'s (keys compared as JSON; a removed key is undefined). */
export function statePatchBetween(before: NodeState, after: NodeState): StatePatch {
  const patch: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const was = (before as Record<string, unknown>)[key];
    const is = (after as Record<string, unknown>)[key];
    if (JSON.stringify(was) !== JSON.stringify(is)) patch[key] = is;
  }
  return patch as StatePatch;
}

/** Two patches of one node as one, the later winning key by key. */
export function mergedPatch(first: NodePatch | undefined, later: NodePatch): NodePatch {
  if (!first) return later;
  return { ...first, ...later, ...(first.state || later.state ? { state: { ...first.state, ...later.state } } : {}) };
}

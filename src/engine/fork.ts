import { actionPoint, type Action } from '../actions/action.js';
import type { Box } from '../checks/geometry.js';
import { compareUrls } from '../checks/urlCheck.js';
import { narrowed } from '../progress/deadline.js';
import type { BoundParams } from '../params/boundParams.js';
import { preCheck, runValuesOf, type CheckEnvironment, type CheckPass } from './preCheck.js';
import { namesUsedBy } from './paramBindings.js';
import { doesSameWork } from './recordStep.js';
import { FOCUS_ONLY_ROLES } from './rejoin.js';
import type { TrajectoryNode } from '../trajectory/trajectoryNode.js';
import { arrivalsOf, endKeysOf, learnedUnderSame, misfit, type RunValues, type ValueKey } from '../trajectory/valueKeys.js';

/** Ending the run at a recorded end, as one of the options at a place: whether this run's values allow it. */
export type EndOption = {
  node: TrajectoryNode;
  /** Some run ended here under values that fit this run's. */
  fits: boolean;
  /** One ended here under exactly this run's values. */
  exact: boolean;
  /** When it does not fit: a parameter whose value differs from every end's. */
  misfit?: string;
};

/** The end at `node`, when runs ended there. */
export function endOptionAt(node: TrajectoryNode | undefined, run: RunValues): EndOption | undefined {
  if (!node?.endsRun) return undefined;
  const keys = endKeysOf(node);
  const misfits = keys.map((key) => misfit(key, run));
  if (misfits.includes(undefined)) return { node, fits: true, exact: keys.some((key) => learnedUnderSame(key, run)) };
  return { node, fits: false, exact: false, ...(misfits[0] ? { misfit: misfits[0] } : {}) };
}

/** What a run does at a fork: a step, the end, or neither (nothing recorded tells which it needs). */
export type ForkChoice = { kind: 'step'; pass: CheckPass } | { kind: 'end' } | { kind: 'undecided'; reason: string; options: TrajectoryNode[]; endToo: boolean };

/**
 * A candidate passed its checks: is it the only way on? Every other candidate that does other work
 * is checked once, as the page is now, and so is the end where runs ended here. When more than one
 * way fits the page and the values, the one learned under exactly this run's values is taken;
 * without exactly one such, rote does not choose (a count, a choice or a yes/no that no step shows
 * may be what tells them apart).
 */
export async function resolveFork(input: {
  env: CheckEnvironment;
  first: CheckPass;
  candidates: readonly TrajectoryNode[];
  end: EndOption | undefined;
  describe: (node: TrajectoryNode) => string;
}): Promise<ForkChoice> {
  const { env, first, end, describe } = input;
  const run = runValuesOf(env);
  const passes: CheckPass[] = [first];
  for (const candidate of input.candidates) {
    if (candidate === first.node || passes.some((pass) => sameWork(pass.node, candidate))) continue;
    const checked = await preCheck(env, candidate, narrowed(env.deadline, 0));
    // Two steps that, with this run's values, type the same text into the same field (a date kept
    // literal that this value decides, beside the detour learned for it) are one way on.
    // So are two that click the control this run's value names (a radio {{plan}}, recorded once on
    // Basic and once on Standard): both found the same element, and act on it alike.
    if (checked.ok && !passes.some((pass) => sameBoundWork(pass, checked) || sameValuePick(pass, checked))) passes.push(checked);
  }
  const endPasses = end?.fits === true && endUrlHolds(end.node, env);
  // A step whose control already holds the state it would set (a box ticked already) acts on
  // nothing, and was learned where the page stood otherwise: beside a step that acts it is no way
  // on of its own (the page tells them apart), and alone it is taken as the no-op it is.
  // A click that only puts the caret in a field, beside a step that types into that very field
  // (an agent's detour that clicked the field again before typing), is no way on of its own.
  const typing = passes.filter((pass) => pass.action.type === 'type');
  const focusOnly = passes.filter((pass) => isFocusClick(pass.node) && typing.some((other) => sameTarget(other.node, pass.node)));
  if (focusOnly.length > 0) passes.splice(0, passes.length, ...passes.filter((pass) => !focusOnly.includes(pass)));
  const acting = passes.filter((pass) => !pass.alreadyDone);
  if (acting.length > 0 && acting.length < passes.length) passes.splice(0, passes.length, ...acting);
  else if (acting.length === 0) passes.splice(1);
  if (passes.length === 1 && !endPasses) return { kind: 'step', pass: passes[0]! };
  const exactSteps = passes.filter((pass) => arrivalsOf(pass.node.state).some((key) => learnedUnderSame(key, run)));
  const exactEnd = endPasses && end!.exact;
  if (exactSteps.length + (exactEnd ? 1 : 0) === 1) return exactEnd ? { kind: 'end' } : { kind: 'step', pass: exactSteps[0]! };
  const options = [...passes.map((pass) => describe(pass.node)), ...(endPasses ? ['ending the task here, as a recorded run did'] : [])];
  const keys = [...passes.flatMap((pass) => arrivalsOf(pass.node.state)), ...(endPasses ? endKeysOf(end!.node) : [])];
  // Values no step put on the page are what such paths are usually told apart by; typed ones only when those agree.
  const differing = decidingNames(keys, run);
  const unseen = differing.filter((name) => !run.usedSoFar.has(name));
  const deciding = unseen.length > 0 ? unseen : differing;
  const named = deciding.map((name) => `{{${name}}}`).join(', ');
  const why = deciding.length === 0 ? 'they were learned under the same values' : `they were learned under other values of ${named}${unseen.length > 0 ? ', which no step showed' : ''}`;
  return {
    kind: 'undecided',
    options: passes.map((pass) => pass.node),
    endToo: endPasses,
    reason: `${countWord(options.length)} recorded paths fit this page and this run's values: ${options.join(' or ')}; ${why}, so nothing recorded tells which one this run needs`,
  };
}

/** Two candidates that would do the same thing (the same action on the same target): taking either is no choice. */
function sameWork(a: TrajectoryNode, b: TrajectoryNode): boolean {
  return JSON.stringify(a.action) === JSON.stringify(b.action) ? JSON.stringify(a.fingerprint) === JSON.stringify(b.fingerprint) : doesSameWork(a, b);
}

function isFocusClick(node: TrajectoryNode): boolean {
  return node.action.type === 'click' && node.fingerprint !== null && FOCUS_ONLY_ROLES.has(node.fingerprint.role) && namesUsedBy(node).length === 0;
}

function sameTarget(a: TrajectoryNode, b: TrajectoryNode): boolean {
  const same = (x: unknown, y: unknown) => JSON.stringify(x ?? null) === JSON.stringify(y ?? null);
  return a.fingerprint !== null && same(a.fingerprint, b.fingerprint) && same(a.state.identity, b.state.identity) && same(a.state.position, b.state.position);
}

/** The same action, bound with this run's values, on the same target, told apart the same way among look-alikes. */
function sameBoundWork(a: CheckPass, b: CheckPass): boolean {
  return JSON.stringify(a.action) === JSON.stringify(b.action) && a.typeMode === b.typeMode && sameTarget(a.node, b.node);
}

/**
 * Two steps recorded picking a control by a parameter's value (the same name template, the same
 * role) that, with this run's value, found the very same element (its DOM node) and do the same
 * action on it. Other recorded values make them two nodes; here they are one action.
 */
function sameValuePick(a: CheckPass, b: CheckPass): boolean {
  const template = a.node.state.nameTemplate;
  const liveNode = a.target?.domNode;
  return (
    template !== undefined &&
    template === b.node.state.nameTemplate &&
    a.node.fingerprint?.role === b.node.fingerprint?.role &&
    liveNode !== undefined &&
    liveNode === b.target?.domNode &&
    sameActionOn(a.action, b.action, a.target!.box) &&
    a.typeMode === b.typeMode
  );
}

/** The same action, where a point may differ within the element both land on (each kept its recorded offset). */
function sameActionOn(a: Action, b: Action, box: Box): boolean {
  const pointA = actionPoint(a);
  const pointB = actionPoint(b);
  if (!pointA || !pointB) return JSON.stringify(a) === JSON.stringify(b);
  const strip = (action: Action) => JSON.stringify({ ...action, x: 0, y: 0 });
  return strip(a) === strip(b) && inside(pointA, box) && inside(pointB, box);
}

function inside(point: { x: number; y: number }, box: Box): boolean {
  return point.x >= box.x && point.x <= box.x + box.width && point.y >= box.y && point.y <= box.y + box.height;
}

/** Whether the page is where a recorded run ended at this node (compareUrls says null for a match). */
export function endUrlHolds(node: Pick<TrajectoryNode, 'state'>, env: { page: Pick<CheckEnvironment['page'], 'url'>; params: BoundParams }): boolean {
  const endUrl = node.state.endUrl;
  return !endUrl || compareUrls(endUrl, env.page.url(), env.params) === null;
}

/** Parameters the options' paths were learned under other values of than this run's. */
function decidingNames(keys: readonly ValueKey[], run: RunValues): string[] {
  const names = new Set<string>();
  for (const key of keys) for (const [name, hash] of Object.entries(key.valueHashes)) if (run.valueHashes[name] !== hash) names.add(name);
  return [...names].sort();
}

function countWord(count: number): string {
  return ['two', 'three', 'four', 'five'][count - 2] ?? String(count);
}

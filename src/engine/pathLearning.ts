import type { Action } from '../actions/action.js';
import type { BoundParams } from '../params/boundParams.js';
import { fold } from '../params/fold.js';
import type { NodeLink } from '../store/rows.js';
import { namesSetBy, namesUsedBy, SECRET_GUARD } from './paramBindings.js';
import type { NodeState, TrajectoryNode } from '../trajectory/trajectoryNode.js';
import { patchNode, statePatchBetween, withPatch, type NodePatch, type StatePatch } from '../trajectory/nodeBuilder.js';
import { arrivalsOf, endKeysOf, holdsKey, keyOfPath, misfit, type ValueKey } from '../trajectory/valueKeys.js';

/** One step of a run's path as the commit sees it. */
export type PathStep = {
  node: TrajectoryNode;
  /** Added by this run (not stored yet). */
  isNew: boolean;
  /** Done by the agent: the page was looked at before it acted. */
  byAgent: boolean;
  /** For an agent's step: the parameters whose values a form control showed just before it acted, and once it had. */
  shownBefore?: readonly string[];
  shownAfter?: readonly string[];
};

export type PathRun = {
  steps: readonly PathStep[];
  params: BoundParams;
  valueHashes: Readonly<Record<string, string>>;
  /** The agent said the task was done after the last step. */
  endedByAgent: boolean;
  /** Whether this run made the last step's node an end (it was none before). */
  newEnd: boolean;
  /** Where recorded ways on both fitted and nothing told them apart (RunLedger.forks): the steps that were options, and the steps whose end was one. */
  forks: { steps: ReadonlySet<string>; ends: ReadonlySet<string> };
};

/** What a run that ended well teaches the tree: patches of its new nodes, and links (state additions) for stored ones. */
export type PathLessons = { patches: Map<string, NodePatch>; links: NodeLink[] };

/** The run's own copies of its path's nodes, which learning changes; the run's nodes stay as they are. */
class WorkingPath {
  readonly steps: PathStep[];
  private readonly additions = new Map<string, { add: Record<string, unknown[]> }>();

  constructor(private readonly run: PathRun) {
    this.steps = run.steps.map((step) => ({ ...step, node: withPatch(step.node, { state: {} }) }));
  }

  /** A new node learns `patch`; a stored one, with `added`, learns the additions of its link too. */
  learn(step: PathStep, patch: StatePatch, added?: { key: 'alsoUnder' | 'endsUnder' | 'setsValue'; items: unknown[] }): void {
    patchNode(step.node, { state: patch });
    if (step.isNew || !added) return;
    const entry = this.additions.get(step.node.id) ?? { add: {} };
    entry.add[added.key] = [...(entry.add[added.key] ?? []), ...added.items];
    this.additions.set(step.node.id, entry);
  }

  lessons(): PathLessons {
    const patches = new Map<string, NodePatch>();
    this.steps.forEach((step, index) => {
      if (!step.isNew) return;
      const state = statePatchBetween(this.run.steps[index]!.node.state, step.node.state);
      if (Object.keys(state).length > 0) patches.set(step.node.id, { state });
    });
    return { patches, links: [...this.additions].map(([id, { add }]) => ({ id, state: { add } })) };
  }
}

/**
 * What a run that ended well teaches the tree about values, as patches of its new nodes and
 * links for stored ones (the run's nodes are not changed):
 * - which steps set a parameter by clicks (NodeState.setsValue), so that under another value none
 *   of them runs;
 * - for every step, what the path put on the page from there on and the values it was learned
 *   under (new nodes: `ahead`, `valueHashes`; stored ones: `alsoUnder`, when no path learned there
 *   fitted this run, or the step settled a fork);
 * - where it ended, and under what values (`endsUnder`).
 */
export function learnFromPath(run: PathRun): PathLessons {
  const path = new WorkingPath(run);
  for (const [index, sets] of valueSettingSteps(run)) {
    const step = path.steps[index]!;
    const fresh = sets.filter((set) => !(step.node.state.setsValue ?? []).some((known) => known.param === set.param && known.hash === set.hash));
    if (fresh.length > 0) path.learn(step, { setsValue: [...(step.node.state.setsValue ?? []), ...fresh] }, { key: 'setsValue', items: fresh });
  }
  const { keys, watchedAhead } = learnAhead(path, run);
  learnArrivals(path, run, keys);
  learnEnd(path, run, watchedAhead);
  return path.lessons();
}

/** For every step, from the last back: what the path put on the page from there on (and, on new nodes, the watches that matter). */
function learnAhead(path: WorkingPath, run: PathRun): { keys: ValueKey[]; watchedAhead: Set<string> } {
  const names = run.params.names();
  const usedInRun = new Set(path.steps.flatMap((step) => namesUsedBy(step.node)));
  const ahead = new Set<string>();
  const watchedAhead = new Set<string>();
  const keys: ValueKey[] = [];
  for (const step of [...path.steps].reverse()) {
    const { node } = step;
    for (const name of [...namesUsedBy(node), ...namesSetBy(node)]) ahead.add(name);
    if (step.isNew) {
      // A watch matters only for a parameter the run never typed or chose (its value was on the
      // page, set before or by clicks), and only at the last step that saw it: checked there, a
      // changed value hands over right before the submit.
      const watches = (node.state.watches ?? []).filter((watch) => !usedInRun.has(watch.param) && !watchedAhead.has(watch.param));
      path.learn(step, { watches: watches.length > 0 ? watches : undefined });
    }
    // What this step checks on the page (a stored step, what it was recorded checking).
    for (const watch of node.state.watches ?? []) if (!usedInRun.has(watch.param)) watchedAhead.add(watch.param);
    keys.unshift(keyOfPath(ahead, watchedAhead, names, run.valueHashes));
  }
  return { keys, watchedAhead };
}

/** The values each step was learned under: a new node's own; a stored one's added when no path learned there fitted, or the step settled a fork. */
function learnArrivals(path: WorkingPath, run: PathRun, keys: readonly ValueKey[]): void {
  const names = run.params.names();
  const usedBefore = new Set<string>();
  path.steps.forEach((step, index) => {
    const key = keys[index]!;
    const { node } = step;
    if (step.isNew) {
      path.learn(step, { ahead: key.ahead, watchedAhead: key.watched ?? [], valueHashes: key.valueHashes });
    } else {
      const values = { names, valueHashes: run.valueHashes, usedSoFar: usedBefore };
      const fitted = arrivalsOf(node.state).some((known) => misfit(known, values) === undefined);
      if ((!fitted || run.forks.steps.has(node.id)) && !holdsKey(arrivalsOf(node.state), key)) {
        path.learn(step, { alsoUnder: [...(node.state.alsoUnder ?? []), key] }, { key: 'alsoUnder', items: [key] });
      }
    }
    namesUsedBy(node).forEach((name) => usedBefore.add(name));
  });
}

/** Where the agent said the run was done, and under what values. */
function learnEnd(path: WorkingPath, run: PathRun, watchedAhead: ReadonlySet<string>): void {
  const last = path.steps.at(-1);
  if (!run.endedByAgent || !last) return;
  const names = run.params.names();
  // The values the path checked on the page before it ended are proven this run's: they key nothing.
  const key = keyOfPath(new Set(), watchedAhead, names, run.valueHashes);
  const { node } = last;
  if (last.isNew) {
    path.learn(last, { endsUnder: [key] });
    return;
  }
  // Every parameter the path put to use, the last step's too.
  const usedBefore = new Set(path.steps.flatMap((step) => namesUsedBy(step.node)));
  // An end kept before ends had keys stands for its recording's values: kept beside the new one.
  const known = run.newEnd ? (node.state.endsUnder ?? []) : endKeysOf(node);
  const fitted = known.some((end) => misfit(end, { names, valueHashes: run.valueHashes, usedSoFar: usedBefore }) === undefined);
  if (fitted && !run.forks.ends.has(node.id) && !run.newEnd) return;
  const added = [...(node.state.endsUnder === undefined && !run.newEnd ? known : []), ...(holdsKey(known, key) ? [] : [key])];
  if (added.length > 0) path.learn(last, { endsUnder: [...(node.state.endsUnder ?? []), ...added] }, { key: 'endsUnder', items: added });
}

/** Roles and tags whose click sets a value of their own (a box, a radio, a select): never part of another value's widget. */
const OWN_VALUE_ROLES = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio']);

/**
 * The steps of the run that set a parameter's value by clicks, by index: for each parameter no
 * step typed or chose, whose value a form control came to show during one of the agent's steps (a
 * spinner's field after its arrows, a date field after a day cell, a read-only field after a
 * list's option) and not before, that step and the agent's steps just before it that worked the
 * same widget: clicks that neither typed, nor used a parameter, nor loaded a document, nor set a
 * value of their own (a checkbox), nor made another parameter's value show.
 */
function valueSettingSteps(run: PathRun): Map<number, { param: string; hash: string }[]> {
  const found = new Map<number, { param: string; hash: string }[]>();
  const { steps, params } = run;
  const used = new Set(steps.flatMap((step) => namesUsedBy(step.node)));
  const seen = (step: PathStep) => (step.byAgent && step.shownBefore && step.shownAfter ? { before: new Set(step.shownBefore), after: new Set(step.shownAfter) } : undefined);
  for (const name of params.names()) {
    if (used.has(name)) continue;
    // The first step the agent did that the value showed around: if it showed before it, it was
    // there already (a watch guards it) or set by cached steps (bound when they were learned).
    const setter = steps.findIndex((step) => {
      const sight = seen(step);
      return sight !== undefined && (sight.before.has(name) || sight.after.has(name));
    });
    if (setter < 0 || seen(steps[setter]!)!.before.has(name)) continue;
    const hash = params.isSecret(name) ? SECRET_GUARD : run.valueHashes[name];
    if (hash === undefined) continue;
    const value = fold(params.get(name) ?? '');
    const bind = (index: number) => found.set(index, [...(found.get(index) ?? []), { param: name, hash }]);
    bind(setter);
    for (let index = setter - 1; index >= 0; index--) {
      const step = steps[index]!;
      const sight = seen(step);
      if (!sight) break;
      const showedAnother = [...sight.after].some((other) => other !== name && !used.has(other) && !sight.before.has(other));
      if (showedAnother || !worksSameWidget(step.node, name, value)) break;
      if (step.node.action.type !== 'wait') bind(index);
    }
  }
  return found;
}

/** Whether a step before the one that set a value may be part of setting it (see valueSettingSteps). */
function worksSameWidget(node: TrajectoryNode, name: string, value: string): boolean {
  if (namesUsedBy(node).length > 0 || namesSetBy(node).some((other) => other !== name) || node.state.navigated === true) return false;
  if (node.fingerprint && (OWN_VALUE_ROLES.has(node.fingerprint.role) || node.fingerprint.tag === 'select')) return false;
  return actionWorksWidget(node.action, node.state, value);
}

function actionWorksWidget(action: Action, state: NodeState, value: string): boolean {
  switch (action.type) {
    case 'click':
    case 'double_click':
    case 'drag':
    case 'scroll':
    case 'move':
    case 'wait':
      return true;
    case 'keypress':
      // Arrows step a value; Enter and Tab move on to something else.
      return !action.keys.some((key) => ['ENTER', 'RETURN', 'TAB'].includes(key.toUpperCase()));
    case 'type': {
      // The start of the value typed into a search-as-you-type field ("Bos" before "Boston" is picked).
      const typed = fold(action.text);
      return state.typeMode !== 'select' && typed !== '' && value.includes(typed);
    }
    case 'goto':
    case 'tool':
      return false;
  }
}

import type { Action } from '../actions/action.js';
import type { BoundParams } from '../params/boundParams.js';
import { fold } from '../params/fold.js';
import type { NodeLink } from '../store/rows.js';
import { namesSetBy, namesUsedBy, SECRET_GUARD } from './paramBindings.js';
import type { NodeState, TrajectoryNode } from '../trajectory/trajectoryNode.js';
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

/**
 * What a run that ended well teaches the tree about values, written into its new nodes and
 * returned as state changes for stored ones:
 * - which steps set a parameter by clicks (NodeState.setsValue), so that under another value none
 *   of them runs;
 * - for every step, what the path put on the page from there on and the values it was learned
 *   under (new nodes: `ahead`, `valueHashes`; stored ones: `alsoUnder`, when no path learned there
 *   fitted this run, or the step settled a fork);
 * - where it ended, and under what values (`endsUnder`).
 */
export function learnFromPath(run: PathRun): NodeLink[] {
  const patches = new Map<string, { add: Record<string, unknown[]> }>();
  const patch = (node: TrajectoryNode, key: 'alsoUnder' | 'endsUnder' | 'setsValue', items: unknown[]) => {
    const entry = patches.get(node.id) ?? { add: {} };
    entry.add[key] = [...(entry.add[key] ?? []), ...items];
    patches.set(node.id, entry);
  };

  for (const [index, sets] of valueSettingSteps(run)) {
    const step = run.steps[index]!;
    const fresh = sets.filter((set) => !(step.node.state.setsValue ?? []).some((known) => known.param === set.param && known.hash === set.hash));
    if (fresh.length === 0) continue;
    step.node.state.setsValue = [...(step.node.state.setsValue ?? []), ...fresh];
    if (!step.isNew) patch(step.node, 'setsValue', fresh);
  }

  const names = run.params.names();
  const usedInRun = new Set(run.steps.flatMap((step) => namesUsedBy(step.node)));
  const ahead = new Set<string>();
  const watchedAhead = new Set<string>();
  const keys: ValueKey[] = [];
  for (const step of [...run.steps].reverse()) {
    const { node } = step;
    for (const name of [...namesUsedBy(node), ...namesSetBy(node)]) ahead.add(name);
    if (step.isNew) {
      // A watch matters only for a parameter the run never typed or chose (its value was on the
      // page, set before or by clicks), and only at the last step that saw it: checked there, a
      // changed value hands over right before the submit.
      const watches = (node.state.watches ?? []).filter((watch) => !usedInRun.has(watch.param) && !watchedAhead.has(watch.param));
      if (watches.length > 0) node.state.watches = watches;
      else delete node.state.watches;
    }
    // What this step checks on the page (a stored step, what it was recorded checking).
    for (const watch of node.state.watches ?? []) if (!usedInRun.has(watch.param)) watchedAhead.add(watch.param);
    keys.unshift(keyOfPath(ahead, watchedAhead, names, run.valueHashes));
  }

  const usedBefore = new Set<string>();
  run.steps.forEach((step, index) => {
    const key = keys[index]!;
    const { node } = step;
    if (step.isNew) {
      node.state.ahead = key.ahead;
      node.state.watchedAhead = key.watched ?? [];
      node.state.valueHashes = key.valueHashes;
    } else {
      const values = { names, valueHashes: run.valueHashes, usedSoFar: usedBefore };
      const fitted = arrivalsOf(node.state).some((known) => misfit(known, values) === undefined);
      if ((!fitted || run.forks.steps.has(node.id)) && !holdsKey(arrivalsOf(node.state), key)) {
        node.state.alsoUnder = [...(node.state.alsoUnder ?? []), key];
        patch(node, 'alsoUnder', [key]);
      }
    }
    namesUsedBy(node).forEach((name) => usedBefore.add(name));
  });

  const last = run.steps.at(-1);
  if (run.endedByAgent && last) {
    // The values the path checked on the page before it ended are proven this run's: they key nothing.
    const key = keyOfPath(new Set(), watchedAhead, names, run.valueHashes);
    const { node } = last;
    if (last.isNew) node.state.endsUnder = [key];
    else {
      // An end kept before ends had keys stands for its recording's values: kept beside the new one.
      const known = run.newEnd ? (node.state.endsUnder ?? []) : endKeysOf(node);
      const fitted = known.some((end) => misfit(end, { names, valueHashes: run.valueHashes, usedSoFar: usedBefore }) === undefined);
      if (!fitted || run.forks.ends.has(node.id) || run.newEnd) {
        const added = [...(node.state.endsUnder === undefined && !run.newEnd ? known : []), ...(holdsKey(known, key) ? [] : [key])];
        if (added.length > 0) {
          node.state.endsUnder = [...(node.state.endsUnder ?? []), ...added];
          patch(node, 'endsUnder', added);
        }
      }
    }
  }
  return [...patches].map(([id, { add }]) => ({ id, state: { add } }));
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

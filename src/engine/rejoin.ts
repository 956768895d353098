import { sameFingerprint } from '../checks/fingerprint.js';
import { narrowed } from '../progress/deadline.js';
import type { Box } from '../checks/geometry.js';
import { templateNames } from '../params/template.js';
import { nodeRef, type NodeRef } from '../trajectory/nodeRef.js';
import { namesUsedBy } from './paramBindings.js';
import type { CheckEnvironment } from './preCheck.js';
import { preCheck } from './preCheck.js';
import { doesSameWork } from './recordStep.js';
import type { TrajectoryNode } from '../trajectory/trajectoryNode.js';
import type { TrajectoryView } from './trajectoryView.js';

/**
 * Roles whose click only puts the caret in a field: skipping such a click loses nothing. Date,
 * InputTime and DateTime are what Chromium calls native date, time and datetime-local fields.
 */
export const FOCUS_ONLY_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton', 'Date', 'InputTime', 'DateTime']);
/** How many recorded steps a re-join may look past. */
const MAX_SKIPPED = 6;

function isSelectAll(keys: readonly string[]): boolean {
  const upper = keys.map((key) => key.toUpperCase());
  return upper.length === 2 && upper.includes('A') && upper.some((key) => ['CTRL', 'CONTROL', 'CMD', 'COMMAND', 'META'].includes(key));
}

/**
 * Whether the agent's detour has already done what a recorded step would do, so the replay may
 * continue after it: a click that only focuses a field, a wait or a move, typing whose every
 * parameter the detour has typed into the same field, or a step the detour did the same work as.
 */
function coveredByDetour(cached: TrajectoryNode, detour: readonly TrajectoryNode[], isNew: (node: TrajectoryNode) => boolean): boolean {
  // A step that sets a value by clicks (an arrow, a day) is done only for its values: another
  // press like it by the agent is not this press (the third + is not the first).
  if ((cached.state.setsValue ?? []).length > 0) return false;
  // A detour step that is itself a recorded step was that step, followed on the path: it covers no other.
  if (detour.some((step) => isNew(step) && doesSameWork(cached, step))) return true;
  switch (cached.action.type) {
    case 'click':
    case 'double_click':
    case 'move':
      return cached.fingerprint !== null && FOCUS_ONLY_ROLES.has(cached.fingerprint.role) && namesUsedBy(cached).length === 0;
    case 'wait':
      return true;
    case 'type':
      return typedByDetour(cached, detour);
    case 'keypress':
      // Select-all changes nothing by itself; the typing after it is what counts.
      return isSelectAll(cached.action.keys);
    case 'scroll':
    case 'drag':
    case 'goto':
    case 'tool':
      return false;
  }
}

/**
 * Whether the detour filled the field a recorded typing step fills, with this run's values: a step
 * of the detour typed into the same field (same role, name and type, and what told it apart among
 * look-alikes; or, renamed, the same kind of control in the same place of the same page) a text
 * that uses every parameter the recorded text stands for, templated or kept
 * literal (a date that could not be told for sure). The value typed in another form (08/29/2020
 * for 2020/08/29) covers it; the value typed into another field does not, so a recorded field is
 * never left empty by a re-join.
 */
export function typedByDetour(cached: TrajectoryNode, detour: readonly TrajectoryNode[]): boolean {
  if (cached.action.type !== 'type') return false;
  const names = new Set([...templateNames(cached.action.text), ...Object.keys(cached.state.literalOf ?? {})]);
  if (names.size === 0) return false;
  return detour.some((step) => {
    if (step.action.type !== 'type' || !sameField(cached, step)) return false;
    // A field set by value (a native date) is filled only when the detour's typing left a value in it.
    if (cached.state.typeMode === 'value' && step.state.typeMode !== 'value') return false;
    const used = new Set(namesUsedBy(step));
    return [...names].every((name) => used.has(name));
  });
}

function sameField(a: TrajectoryNode, b: TrajectoryNode): boolean {
  if ((a.state.window ?? 0) !== (b.state.window ?? 0)) return false;
  if (a.fingerprint === null || b.fingerprint === null) return false;
  const same = (x: unknown, y: unknown) => JSON.stringify(x ?? null) === JSON.stringify(y ?? null);
  if (sameFingerprint(a.fingerprint, b.fingerprint) && same(a.state.identity, b.state.identity) && same(a.state.position, b.state.position)) return true;
  // A field that was renamed (its label now "Given name") is the same field where it stands: the
  // same kind of control, on the same page, in the same place.
  const kind = (node: TrajectoryNode) => [node.fingerprint!.role, node.fingerprint!.tag, node.fingerprint!.inputType].join('|');
  return kind(a) === kind(b) && a.url === b.url && a.box !== null && b.box !== null && sameBox(a.box, b.box);
}

/** Two boxes that are one place on the page: corners within a few pixels. */
function sameBox(a: Box, b: Box): boolean {
  const near = (x: number, y: number) => Math.abs(x - y) <= 4;
  return near(a.x, b.x) && near(a.y, b.y) && near(a.width, b.width) && near(a.height, b.height);
}

/**
 * Where the replay can take over again after an agent action: the first recorded step after
 * `from` whose pre-checks pass now, looking past at most MAX_SKIPPED recorded steps that the
 * detour has covered (never past one it has not, so no recorded work is silently dropped).
 * Returns the place to continue after, or undefined when there is none yet. Each candidate is
 * checked once, as the page is now: a re-join does not wait.
 */
export async function findRejoin(
  env: CheckEnvironment,
  view: TrajectoryView,
  from: NodeRef,
  detour: readonly TrajectoryNode[],
  visited: ReadonlySet<string>,
  /** Ways on of a fork this run could not decide: re-joining at one would choose it after all. */
  undecided: ReadonlySet<string> = new Set(),
): Promise<NodeRef | undefined> {
  const eligible = (node: TrajectoryNode) => !view.isNew(node.id) && !visited.has(node.id) && !undecided.has(node.id);
  let level: { after: NodeRef; node: TrajectoryNode }[] = (await view.candidatesAfter(from))
    .filter(eligible)
    .map((node) => ({ after: from, node }));
  for (let depth = 0; depth <= MAX_SKIPPED && level.length > 0; depth++) {
    const next: typeof level = [];
    for (const { after, node } of level) {
      if ((await preCheck(env, node, narrowed(env.deadline, 0))).ok) return after;
      if (coveredByDetour(node, detour, (step) => view.isNew(step.id))) {
        next.push(...(await view.candidatesAfter(nodeRef(node.id))).filter(eligible).map((child) => ({ after: nodeRef(node.id), node: child })));
      }
    }
    level = next;
  }
  return undefined;
}

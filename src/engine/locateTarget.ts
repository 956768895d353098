import type { Page } from 'playwright';
import { actionPoint, withPoint, type Action } from '../actions/action.js';
import { describeFingerprint, type Fingerprint, type Target } from '../checks/fingerprint.js';
import { contains, type Box, type Point } from '../checks/geometry.js';
import { describeIdentity, hasFacets, identityDifference, sameIdentity, type Identity } from '../checks/identity.js';
import { lookalikes, sameBox, type Lookalike } from '../checks/lookalikes.js';
import { recordedContext, recordedName } from '../checks/secretTarget.js';
import { fold } from '../params/fold.js';
import type { BoundParams } from '../params/params.js';
import { isTemplate } from '../params/template.js';
import { targetOf } from './evidence.js';
import { expectedIdentity, needsIdentity } from './targetIdentity.js';
import type { TrajectoryNode } from './trajectoryNode.js';

export type Located = {
  target: Target;
  kind: 'cached' | 'relocated';
  /** The action with its point moved to where the target is now. */
  action: Action;
};

/** Same role, tag and input type, and the expected name (folded, for a name that came from a parameter). */
function matchesRecorded(live: Fingerprint, recorded: Fingerprint, expectedName: string, semantic: boolean): boolean {
  if (live.role !== recorded.role || live.tag !== recorded.tag || live.inputType !== recorded.inputType) return false;
  return semantic ? fold(live.name) === fold(expectedName) : live.name === expectedName;
}

function describeLive(live: Target | null, point: Point | undefined): string {
  if (live) return `target is now ${describeFingerprint(live.fingerprint)}`;
  return point ? `nothing is at (${Math.round(point.x)}, ${Math.round(point.y)})` : 'nothing has the focus';
}

/** `expected "Genre field" (textbox, input[type=text]) in row "Genre"`, for messages. */
function describeWanted(wanted: Fingerprint, identity: Identity | undefined): string {
  return `expected ${describeFingerprint(wanted)}${identity && hasFacets(identity) ? ` with ${describeIdentity(identity)}` : ''}`;
}

/**
 * Finds the recorded target on the live page, or says why it cannot be shown to be there. The
 * element under the action's point (or holding the focus) is taken when it is the recorded one:
 * same fingerprint, and where the fingerprint is shared by look-alikes, the same identity (its row
 * and column headers, the text before it, its group, placeholder, stable attributes) and no other
 * element with that identity, or the same place among those that share even that (position is the
 * last resort, never above what the neighbours say). Otherwise a point action moves to the one
 * element that is the target (relocation); typing and keys cannot move, and diverge.
 */
export async function locateTarget(page: Page, node: TrajectoryNode, action: Action, expectedName: string, params: BoundParams): Promise<Located | string> {
  const recorded = node.fingerprint!;
  const semantic = node.state.nameTemplate !== undefined;
  const wanted: Fingerprint = { ...recorded, name: expectedName };
  const rendered = node.state.identity ? expectedIdentity(node.state.identity, params) : undefined;
  if (typeof rendered === 'string') return rendered;
  const identity: Identity | undefined = rendered;
  const point = actionPoint(action);
  const live = await targetOf(page, action, point);
  const isRecorded = (target: Target | null): target is Target =>
    target !== null && matchesRecorded(target.fingerprint, recorded, expectedName, semantic) && (!identity || sameIdentity(target.identity, identity));
  // A pick by a parameter's value (the row of this run's customer) is another element by design.
  const pickedByValue = semantic || Object.values(node.state.identity ?? {}).some((facet) => isTemplate(facet));
  const stay = (target: Target): Located => ({ target, kind: 'cached', action });

  // The target's kind was unique when recorded: the element at the point, if it is one of that kind.
  if (node.state.matches === 1 && isRecorded(live)) return stay(live);
  if (!needsIdentity(action)) return lighterRules(page, node, action, wanted, live, stay);
  // Older nodes recorded with only a named container to tell look-alikes apart: that container, at the point.
  if (!identity && node.state.matches !== 1 && node.state.context != null) {
    if (isRecorded(live) && live.context === recordedContext(node.state.context, params)) return stay(live);
    return `${describeLive(live, point)}, ${describeWanted(wanted, undefined)} in ${node.state.context}`;
  }

  const found = await lookalikes(page, wanted, { byRole: node.state.roleFromAncestor !== true, folded: semantic });
  if (!found) return `${describeLive(live, point)}, ${describeWanted(wanted, identity)}, and its look-alikes could not be counted`;
  const pick = pickTarget(found, identity, node.state.position);
  if (typeof pick === 'string') {
    const here = live && matchesRecorded(live.fingerprint, recorded, expectedName, semantic) && identity ? `the element there has ${identityDifference(live.identity, identity)}` : describeLive(live, point);
    return `${here}, ${describeWanted(wanted, identity)}, and ${pick}`;
  }
  if (isRecorded(live) && sameBox(live.box, pick.box)) return stay(live);
  if (!point || !node.box) return `${describeLive(live, point)}, ${describeWanted(wanted, identity)}: it is elsewhere, and ${action.type === 'type' ? 'typing' : 'a key press'} goes where the focus is`;
  const moved = await moveTo(page, node, action, point, pick.box, isRecorded, pickedByValue, recorded, params, expectedName);
  return typeof moved === 'string' ? `${describeLive(live, point)}, ${describeWanted(wanted, identity)}; ${moved}` : moved;
}

/**
 * The one look-alike that is the target: the only one with its identity, or, when several share
 * even that, the one at its recorded place among as many as were recorded. A string says why none.
 */
function pickTarget(found: Lookalike[], identity: Identity | undefined, position: { index: number; of: number } | undefined): Lookalike | string {
  const same = identity ? found.filter((other) => sameIdentity(other.identity, identity)) : found;
  if (same.length === 1) return same[0]!;
  if (same.length === 0) return 'no visible element is that target';
  if (position && position.of === same.length) return same[position.index]!;
  const recordedCount = position ? ` (${position.of} when recorded)` : '';
  return `${same.length} visible elements are like it${recordedCount} and nothing on the page tells which one it is: the step cannot be shown safe`;
}

/** Acts at the target's new place, once the element there is shown to be it. */
async function moveTo(
  page: Page,
  node: TrajectoryNode,
  action: Action,
  point: Point,
  box: Box,
  isRecorded: (target: Target | null) => target is Target,
  pickedByValue: boolean,
  recorded: Fingerprint,
  params: BoundParams,
  expectedName: string,
): Promise<Located | string> {
  const moved = relocatedPoint(point, node.box!, box);
  const there = await targetOf(page, action, moved);
  if (!isRecorded(there) || !sameBox(there.box, box)) {
    return `it moved, and at its new place (${Math.round(moved.x)}, ${Math.round(moved.y)}) something covers it${there ? ` (${describeFingerprint(there.fingerprint)})` : ''}`;
  }
  // A target found where it was (it appeared late) did not move, and one picked by a new value is
  // the designed path: neither is a relocation.
  const samePlace = Math.abs(moved.x - point.x) < 2 && Math.abs(moved.y - point.y) < 2;
  const newName = node.state.nameTemplate !== undefined && fold(expectedName) !== fold(recordedName(recorded, params));
  const kind = samePlace || newName || pickedByValue ? 'cached' : 'relocated';
  return { target: there, kind, action: withPoint(action, moved) };
}

/**
 * Scrolling and moving the pointer change nothing where they land: the element at the point of
 * the recorded kind will do, and a target whose kind was unique is followed where it moved.
 */
async function lighterRules(
  page: Page,
  node: TrajectoryNode,
  action: Action,
  wanted: Fingerprint,
  live: Target | null,
  stay: (target: Target) => Located,
): Promise<Located | string> {
  const point = actionPoint(action);
  const semantic = node.state.nameTemplate !== undefined;
  const isKind = (target: Target | null): target is Target => target !== null && matchesRecorded(target.fingerprint, wanted, wanted.name, semantic);
  if (isKind(live)) return stay(live);
  if (!point || !node.box || node.state.matches !== 1) return `${describeLive(live, point)}, expected ${describeFingerprint(wanted)}`;
  const found = await lookalikes(page, wanted, { byRole: node.state.roleFromAncestor !== true, folded: semantic });
  if (!found || found.length !== 1) return `${describeLive(live, point)}, expected ${describeFingerprint(wanted)}, and no single element of that kind is visible`;
  const moved = relocatedPoint(point, node.box, found[0]!.box);
  const there = await targetOf(page, action, moved);
  if (!isKind(there)) return `${describeLive(live, point)}; it moved, and at its new place something covers it`;
  const samePlace = Math.abs(moved.x - point.x) < 2 && Math.abs(moved.y - point.y) < 2;
  return { target: there, kind: samePlace ? 'cached' : 'relocated', action: withPoint(action, moved) };
}

/** The same spot on the target's new box, kept inside it. */
function relocatedPoint(point: Point, recordedBox: Box, liveBox: Box): Point {
  const moved = { x: liveBox.x + (point.x - recordedBox.x), y: liveBox.y + (point.y - recordedBox.y) };
  if (contains(liveBox, moved)) return moved;
  return { x: liveBox.x + liveBox.width / 2, y: liveBox.y + liveBox.height / 2 };
}

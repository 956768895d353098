import { accept, refuse, type Outcome } from '../errors/refusal.js';
import type { Page } from 'playwright';
import { actionPoint, withPoint, type Action } from '../actions/action.js';
import { describeFingerprint, type Fingerprint, type Target } from '../checks/fingerprint.js';
import { contains, type Box, type Point } from '../checks/geometry.js';
import { describeIdentity, facetReading, identityDifference, sameIdentity, type Identity } from '../checks/identity.js';
import { lookalikes, sameBox, type Lookalike } from '../checks/lookalikes.js';
import { recordedName } from '../checks/secretTarget.js';
import { fold } from '../params/fold.js';
import type { BoundParams } from '../params/boundParams.js';
import type { Deadline } from '../progress/deadline.js';
import { targetOf } from './evidence.js';
import { expectedIdentity, expectedOwnText, identityNames, needsIdentity, shownFacet } from './targetIdentity.js';
import { movedRecord, valueNotHeld } from './whichRecord.js';
import type { TrajectoryNode } from '../trajectory/trajectoryNode.js';

export type Located = {
  target: Target;
  kind: 'cached' | 'relocated';
  /** The action with its point moved to where the target is now. */
  action: Action;
  /**
   * Whether the target is the one the first read found, the read a crop taken early was started
   * beside (visualCheck.ts): a target found by a later read may have changed since that frame.
   */
  firstRead: boolean;
};

/** What the recorded target is, with this run's values: its kind, what tells it apart, what to say of it. */
type Wanted = {
  fingerprint: Fingerprint;
  semantic: boolean;
  /** For a target with no role of its own: the words it shows. */
  ownText: string | undefined;
  identity: Identity | undefined;
  /** How the wanted target is described in messages: the stored identity (templates, never a secret). */
  described: string;
};

/** Same role, tag and input type, the expected name (folded, for a name that came from a parameter), and for a bare element its own words. */
function isKind(live: Target, recorded: Fingerprint, wanted: Wanted): boolean {
  const fingerprint = live.fingerprint;
  if (fingerprint.role !== recorded.role || fingerprint.tag !== recorded.tag || fingerprint.inputType !== recorded.inputType) return false;
  if (wanted.ownText !== undefined && facetReading(live.ownText) !== facetReading(wanted.ownText)) return false;
  return wanted.semantic ? fold(fingerprint.name) === fold(wanted.fingerprint.name) : fingerprint.name === wanted.fingerprint.name;
}

function describeLive(live: Target | null, point: Point | undefined): string {
  if (live) return `target is now ${describeFingerprint(live.fingerprint)}`;
  return point ? `nothing is at (${Math.round(point.x)}, ${Math.round(point.y)})` : 'nothing has the focus';
}

/**
 * Finds the recorded target on the live page, or says why it cannot be shown to be there. The
 * element under the action's point (or holding the focus) is taken when it is the recorded one:
 * same fingerprint, the only element of its kind now as when recorded, or, where look-alikes share
 * the fingerprint, the one with the recorded identity (its row and column headers, the text before
 * it, its item or group, placeholder, stable attributes), or the one at its recorded place among
 * those that share even that (position is the last resort, never above what the neighbours say).
 * Otherwise a point action moves to the one element that is the target (relocation); typing and
 * keys cannot move, and diverge.
 */
export async function locateTarget(page: Page, node: TrajectoryNode, action: Action, expectedName: string, params: BoundParams, deadline: Deadline): Promise<Outcome<Located>> {
  const recorded = node.fingerprint!;
  const expected = node.state.identity ? expectedIdentity(node.state.identity, params) : undefined;
  if (expected && !expected.ok) return expected;
  const rendered = expected?.value;
  const ownText = node.state.ownText !== undefined ? expectedOwnText(node.state.ownText, params) : undefined;
  const fingerprint = { ...recorded, name: expectedName };
  const wanted: Wanted = {
    fingerprint,
    semantic: node.state.nameTemplate !== undefined,
    ownText,
    identity: rendered,
    described: `expected ${describeFingerprint(fingerprint)}${node.state.identity ? ` with ${describeIdentity(node.state.identity)}` : ''}`,
  };
  const point = actionPoint(action);
  // The kind is counted every time (see below): asked together with the target, the two round trips overlap.
  const counting = needsIdentity(action)
    ? lookalikes(page, fingerprint, { byRole: node.state.roleFromAncestor !== true, folded: wanted.semantic, ...(ownText !== undefined ? { text: ownText } : {}), identities: rendered !== undefined, cells: rendered?.rowCell !== undefined || node.state.holds !== undefined, deadline })
    : undefined;
  const live = await targetOf(page, action, { identity: rendered !== undefined, cells: rendered?.rowCell !== undefined, deadline }, point);
  const isRecorded = (target: Target | null): target is Target => target !== null && isKind(target, recorded, wanted) && (!rendered || sameIdentity(target.identity, rendered));
  // A pick by a parameter's value (the row of this run's customer) is another element by design.
  const pickedByValue = wanted.semantic || identityNames(node.state.identity).length > 0;
  const stay = (target: Target) => accept<Located>({ target, kind: 'cached', action, firstRead: true });

  // A named container (row, dialog) is not an identity: it is shared by every field of a layout
  // table's row. A target whose look-alikes nothing told apart when recorded is not acted on.
  if (!counting) return lighterRules(page, node, action, wanted, live, stay, deadline);

  // The kind is counted every time: a target that was the only one of its kind when recorded (the
  // one pending request's Approve) is not the recorded one when another like it stands there now.
  const found = await counting;
  if (!found) return refuse(`${describeLive(live, point)}, ${wanted.described}, and its look-alikes could not be counted`);
  const pick = pickTarget(found, rendered, node.state.position, node.state.matches);
  if (!pick.ok) {
    const difference = live && rendered && isKind(live, recorded, wanted) ? identityDifference(live.identity, rendered, node.state.identity ?? {}, (text) => shownFacet(text, params)) : '';
    const here = difference ? `the element there has ${difference}` : describeLive(live, point);
    return refuse(`${here}, ${wanted.described}, and ${pick.reason}`);
  }
  const otherRecord = movedRecord(found, pick.value, node.state.order) ?? valueNotHeld(pick.value, node.state.holds, params);
  if (otherRecord) return refuse(`${describeLive(live, point)}, ${wanted.described}; ${otherRecord}`);
  if (isRecorded(live) && sameBox(live.box, pick.value.box)) return stay(live);
  if (!point || !node.box) return refuse(`${describeLive(live, point)}, ${wanted.described}: it is elsewhere, and ${action.type === 'type' ? 'typing' : 'a key press'} goes where the focus is`);
  const relocated = await moveTo(page, node, action, point, pick.value.box, isRecorded, pickedByValue, recorded, params, expectedName, rendered !== undefined, deadline);
  return relocated.ok ? relocated : refuse(`${describeLive(live, point)}, ${wanted.described}; ${relocated.reason}`);
}

/**
 * The one look-alike that is the target: the only one with its identity, or, when several share
 * even that, the one at its recorded place among as many as were recorded. A target recorded as
 * the only one of its kind must be the only one now. A string says why none is.
 */
function pickTarget(found: Lookalike[], identity: Identity | undefined, position: { index: number; of: number } | undefined, recordedMatches: number | null | undefined): Outcome<Lookalike> {
  const same = identity ? found.filter((other) => sameIdentity(other.identity, identity)) : found;
  if (same.length === 1) return accept(same[0]!);
  if (same.length === 0) return refuse('no visible element is that target');
  if (position && position.of === same.length) return accept(same[position.index]!);
  if (recordedMatches === 1 && !identity) return refuse(`it was the only one of its kind when recorded and ${same.length} visible elements are like it now: which one is meant cannot be shown`);
  const recordedCount = position ? ` (${position.of} when recorded)` : '';
  return refuse(`${same.length} visible elements are like it${recordedCount} and nothing on the page tells which one it is: the step cannot be shown safe`);
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
  withIdentity: boolean,
  deadline: Deadline,
): Promise<Outcome<Located>> {
  const moved = relocatedPoint(point, node.box!, box);
  const there = await targetOf(page, action, { identity: withIdentity, cells: node.state.identity?.rowCell !== undefined, deadline }, moved);
  if (!isRecorded(there) || !sameBox(there.box, box)) {
    return refuse(`it moved, and at its new place (${Math.round(moved.x)}, ${Math.round(moved.y)}) something covers it${there ? ` (${describeFingerprint(there.fingerprint)})` : ''}`);
  }
  // A target found where it was (it appeared late) did not move, and one picked by a new value is
  // the designed path: neither is a relocation.
  const samePlace = Math.abs(moved.x - point.x) < 2 && Math.abs(moved.y - point.y) < 2;
  const newName = node.state.nameTemplate !== undefined && fold(expectedName) !== fold(recordedName(recorded, params));
  const kind = samePlace || newName || pickedByValue ? 'cached' : 'relocated';
  return accept({ target: there, kind, action: withPoint(action, moved), firstRead: false });
}

/**
 * Scrolling and moving the pointer change nothing where they land: the element at the point of
 * the recorded kind will do, and a target whose kind was unique is followed where it moved.
 */
async function lighterRules(
  page: Page,
  node: TrajectoryNode,
  action: Action,
  wanted: Wanted,
  live: Target | null,
  stay: (target: Target) => Outcome<Located>,
  deadline: Deadline,
): Promise<Outcome<Located>> {
  const point = actionPoint(action);
  const recorded = node.fingerprint!;
  const ofKind = (target: Target | null): target is Target => target !== null && isKind(target, recorded, wanted);
  if (ofKind(live)) return stay(live);
  if (!point || !node.box || node.state.matches !== 1) return refuse(`${describeLive(live, point)}, ${wanted.described}`);
  const found = await lookalikes(page, wanted.fingerprint, { byRole: node.state.roleFromAncestor !== true, folded: wanted.semantic, ...(wanted.ownText !== undefined ? { text: wanted.ownText } : {}), identities: false, deadline });
  if (!found || found.length !== 1) return refuse(`${describeLive(live, point)}, ${wanted.described}, and no single element of that kind is visible`);
  const moved = relocatedPoint(point, node.box, found[0]!.box);
  const there = await targetOf(page, action, { identity: false, deadline }, moved);
  if (!ofKind(there)) return refuse(`${describeLive(live, point)}; it moved, and at its new place something covers it`);
  const samePlace = Math.abs(moved.x - point.x) < 2 && Math.abs(moved.y - point.y) < 2;
  return accept({ target: there, kind: samePlace ? 'cached' : 'relocated', action: withPoint(action, moved), firstRead: false });
}

/** The same spot on the target's new box, kept inside it. */
function relocatedPoint(point: Point, recordedBox: Box, liveBox: Box): Point {
  const moved = { x: liveBox.x + (point.x - recordedBox.x), y: liveBox.y + (point.y - recordedBox.y) };
  if (contains(liveBox, moved)) return moved;
  return { x: liveBox.x + liveBox.width / 2, y: liveBox.y + liveBox.height / 2 };
}

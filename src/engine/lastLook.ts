import type { Page } from 'playwright';
import { actionPoint, type Action } from '../actions/action.js';
import type { Target } from '../checks/fingerprint.js';
import { unmovedTarget } from '../checks/lookalikes.js';
import { PICK_ELEMENT } from '../checks/target.js';
import { raceDeadline, type Deadline } from '../progress/deadline.js';
import { targetOf } from './evidence.js';

/**
 * The last look at a target whose checks ran while the step before was settled only for now
 * (checks/settleConfirm.ts): the element the action lands on (at its point, or holding the focus)
 * is still the one checked, in the same place, with the same fingerprint and state, and nothing
 * new over it. The sentinel sees no change inside a frame or a shadow root: a target there (whose
 * cover cannot be told from the top page) is never vouched for this way, and is checked again on a
 * page settled the usual way.
 *
 * What it must show is that the read still held once the tasks the action queued had run, which
 * the confirmation says they have: any look after the confirmation shows it, as well as one right
 * before the action. So it is taken as soon as both the target's read and the confirmation are
 * in (preCheck), beside the wait for the crop, not after it. What changes after that is what any
 * step's checks cannot see between their read and the action, on a page settled the usual way too.
 */
export async function stillAsChecked(page: Page, action: Action, checked: Target, deadline: Deadline): Promise<boolean> {
  if (checked.uncovered === null || checked.domNode === undefined) return false;
  const quick = checked.read !== undefined ? await lookAtRead(page, action, checked, checked.read, deadline) : 'unknown';
  if (quick !== 'unknown') return quick === 'same';
  const now = await targetOf(page, action, { deadline, identity: false });
  return (
    unmovedTarget(now, checked) &&
    now.domNode === checked.domNode &&
    now.disabled === checked.disabled &&
    now.checked === checked.checked &&
    now.uncovered === checked.uncovered
  );
}

/**
 * The last look, taken once `wanted` says a provisional settle held (false: the checks are done
 * again anyway, or nothing was provisional). Never rejects: a look that fails is a look that did
 * not agree.
 */
export function lastLookAfter(wanted: Promise<boolean>, page: Page, action: Action, checked: Target, deadline: Deadline): Promise<boolean> {
  return wanted.then((needed) => (needed ? stillAsChecked(page, action, checked, deadline) : true)).catch(() => false);
}

/**
 * Runs in the page: the last look in one evaluation, at the very element the target's read found
 * (kept beside the change log, target.ts). Its accessibility node is not read again where what
 * the sentinel saw still holds (no change at all in the change log since the settle's look, nor
 * in the focus or the scroll, no form on its way): then no attribute, text or element that names
 * the target or disables it has changed since the action, and the read came after the action.
 * What the change log cannot see is looked at: the element the action lands on is that element,
 * in its box, in its checked state, and nothing new over its middle. 'unknown' where that cannot
 * be told this way (something changed since the sentinel, no change log, the read's element let
 * go, a custom element, whose role and state its own script may set with no attribute): the full
 * look is taken instead, as before this one existed.
 */
const LOOK_AT_READ = `(function (read, mode, x, y, box, checkedState, uncovered) {
  var log = window.__roteChangeLog, sentinel = log && log.sentinel;
  var el = log && log.reads ? log.reads.get(read) : undefined;
  if (!el || !sentinel || !sentinel.done || typeof sentinel.changed !== 'function' || el.tagName.indexOf('-') >= 0) return 'unknown';
  if (sentinel.dirty || sentinel.changed()) return 'unknown';
  if (${PICK_ELEMENT}(mode, x, y) !== el) return 'differs';
  var r = el.getBoundingClientRect();
  if (Math.abs(r.x - box.x) >= 1 || Math.abs(r.y - box.y) >= 1 || Math.abs(r.width - box.width) >= 1 || Math.abs(r.height - box.height) >= 1) return 'differs';
  if (checkedState !== null && !!el.checked !== checkedState) return 'differs';
  var hit = r.width > 0 && r.height > 0 ? document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2) : null;
  return (!!hit && (hit === el || el.contains(hit))) === uncovered ? 'same' : 'differs';
})`;

export type ReadLook = 'same' | 'differs' | 'unknown';

/** The last look at the element of the target's read, in one round trip (LOOK_AT_READ); 'unknown' when the page cannot answer it so. */
export async function lookAtRead(page: Page, action: Action, checked: Target, read: number, deadline: Deadline): Promise<ReadLook> {
  const point = actionPoint(action);
  const args = [read, point ? 'point' : 'focus', point?.x ?? 0, point?.y ?? 0, checked.box, checked.checked, checked.uncovered === true].map((value) => JSON.stringify(value)).join(', ');
  const looking = page.evaluate(`${LOOK_AT_READ}(${args})`).then((answer): ReadLook => (answer === 'same' || answer === 'differs' ? answer : 'unknown'));
  return raceDeadline(deadline, looking, (): ReadLook => 'differs').catch((): ReadLook => 'unknown');
}

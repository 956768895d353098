import type { Page } from 'playwright';
import type { Action } from '../actions/action.js';
import type { Target } from '../checks/fingerprint.js';
import { unmovedTarget } from '../checks/lookalikes.js';
import { cdpSession } from '../checks/cdp.js';
import { accessibleFacts, ELEMENT_STATE_JS, KEPT_READ_JS, PICK_ELEMENT, sameAccessibleFacts, type AXNode } from '../checks/target.js';
import { raceDeadline, type Deadline } from '../progress/deadline.js';
import { landingOf, targetOf } from './evidence.js';

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
export async function stillAsChecked(page: Page, action: Action, checked: Target, deadline: Deadline, actionAt?: number): Promise<boolean> {
  if (checked.uncovered === null || checked.domNode === undefined) return false;
  const quick = checked.read !== undefined && actionAt !== undefined ? await lookAtRead(page, action, checked, checked.read, actionAt, deadline) : 'unknown';
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
 * The last look, taken once `wanted` says a provisional settle held, with the time of the action
 * it followed (undefined: the checks are done again anyway, or nothing was provisional). Never
 * rejects: a look that fails is a look that did not agree.
 */
export function lastLookAfter(wanted: Promise<number | undefined>, page: Page, action: Action, checked: Target, deadline: Deadline): Promise<boolean> {
  return wanted.then((actionAt) => (actionAt !== undefined ? stillAsChecked(page, action, checked, deadline, actionAt) : true)).catch(() => false);
}

/**
 * Runs in the page: the last look at the very element the target's read found (kept beside the
 * change log, target.ts), in one evaluation, while its accessibility node is read beside it by its
 * DOM node (one round trip for both, where the full look takes two and four messages). It answers
 * only where what the sentinel of the action before saw still holds (no change at all in the change
 * log since the settle's look, nor in the focus or the scroll, no form on its way): the element the
 * action lands on is that element, in its box, in its checked state, with nothing new over its
 * middle. 'unknown' where that cannot be told this way (something changed since the sentinel,
 * another action's sentinel, no change log, the read's element let go): the full look is taken.
 */
const LOOK_AT_READ = `(function (read, mode, x, y, box, checkedState, uncovered, actionAt) {
  ${ELEMENT_STATE_JS}
  ${KEPT_READ_JS}
  var log = window.__roteChangeLog, sentinel = log && log.sentinel;
  var kept = keptRead(read), el = kept && kept.el;
  if (!el || !sentinel || sentinel.actionAt !== actionAt || !sentinel.done || sentinel.dirty || typeof sentinel.changed !== 'function' || sentinel.changed()) return 'unknown';
  if (${PICK_ELEMENT}(mode, x, y) !== el) return 'differs';
  var r = el.getBoundingClientRect();
  if (Math.abs(r.x - box.x) >= 1 || Math.abs(r.y - box.y) >= 1 || Math.abs(r.width - box.width) >= 1 || Math.abs(r.height - box.height) >= 1) return 'differs';
  if (checkedState !== null && controlState(el).checked !== checkedState) return 'differs';
  return hitsItself(el, r) === uncovered ? 'same' : 'differs';
})`;

export type ReadLook = 'same' | 'differs' | 'unknown';

/**
 * The last look at the element of the target's read, in one round trip: LOOK_AT_READ, and the
 * element's role, name and disabled state from its accessibility node, which may change with
 * nothing the change log sees (a custom element's own ARIA, a label inside a shadow root, text that
 * CSS generates from a property). 'unknown' when the page cannot answer it so.
 */
export async function lookAtRead(page: Page, action: Action, checked: Target, read: string, actionAt: number, deadline: Deadline): Promise<ReadLook> {
  const landing = landingOf(action);
  if (!landing || checked.domNode === undefined) return 'unknown';
  const [x, y] = landing.mode === 'point' ? [landing.x, landing.y] : [0, 0];
  const args = [read, landing.mode, x, y, checked.box, checked.checked, checked.uncovered === true, actionAt].map((value) => JSON.stringify(value)).join(', ');
  const looking = (async (): Promise<ReadLook> => {
    const cdp = await cdpSession(page);
    const [answer, ax] = await Promise.all([page.evaluate(`${LOOK_AT_READ}(${args})`), cdp.send('Accessibility.getPartialAXTree', { backendNodeId: checked.domNode, fetchRelatives: true })]);
    if (answer !== 'same') return answer === 'differs' ? 'differs' : 'unknown';
    return sameAccessibleFacts(accessibleFacts(ax.nodes as AXNode[]), checked) ? 'same' : 'differs';
  })();
  return raceDeadline(deadline, looking, (): ReadLook => 'differs').catch((): ReadLook => 'unknown');
}

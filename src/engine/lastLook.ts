import type { Page } from 'playwright';
import type { Action } from '../actions/action.js';
import type { Target } from '../checks/fingerprint.js';
import { unmovedTarget } from '../checks/lookalikes.js';
import type { Deadline } from '../progress/deadline.js';
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

import type { Page } from 'playwright';
import { narrowed, raceDeadline, type Deadline } from '../progress/deadline.js';
import { navigationWatch, settle, type BeforeAction } from './settle.js';
import { requestWatch } from './stepRequests.js';

/**
 * Settling after a click used to look at the page only after the tasks the action queued (a
 * form's navigation comes in one), and in Chromium such a task waits for the frame the input
 * asked for: about 10 ms after every click here, in which the next step's checks could already
 * have run. A provisional settle (settle's `provisional`) looks at once instead, and leaves a
 * sentinel queued behind those tasks; the next step's checks run meanwhile, and what they read
 * counts only once this confirms that nothing changed by the time those tasks had run: no change
 * at all in the change log, the focus and the scroll where they were, no document left, no form
 * submitted, and on this side no navigation and no request begun since the action. Otherwise the
 * page is settled the usual way here, and whatever was read before it is read again (see
 * RunState.confirmSettled; and nextCachedStep's last look at the target before it acts).
 */

/** How long the sentinel may take to answer before the page is settled the usual way. */
const SENTINEL_LIMIT_MS = 2_000;

type SentinelAnswer = { verdict: 'clean' | 'dirty' | 'gone' };

function readSentinel(actionAt: number): string {
  return `(function () {
    return new Promise(function (resolve) {
      var state = window.__roteChangeLog, sentinel = state && state.sentinel;
      if (!sentinel || sentinel.actionAt !== ${actionAt}) { resolve({ verdict: 'gone' }); return; }
      var answer = function () { resolve({ verdict: sentinel.dirty ? 'dirty' : 'clean' }); };
      if (sentinel.done) answer(); else sentinel.waiters.push(answer);
    });
  })()`;
}

/**
 * Whether a provisional settle after the action of `before` holds (true), or the page had to be
 * settled the usual way after all (false: what was read of it since may be stale).
 */
export async function confirmSettled(page: Page, before: BeforeAction, deadline: Deadline): Promise<boolean> {
  const answer = await raceDeadline(
    narrowed(deadline, SENTINEL_LIMIT_MS),
    page.evaluate(readSentinel(before.at)).then((value) => value as SentinelAnswer),
    (): SentinelAnswer => ({ verdict: 'gone' }),
  ).catch((): SentinelAnswer => ({ verdict: 'gone' }));
  const watch = navigationWatch(page);
  // Any request begun since the action, ended or not, by this process's clock (the page's may differ):
  // its answer may change the page after the sentinel looked. A page's own polling costs a settle, no more.
  const requested = requestWatch(page).anyStartedBetween(before.at, Date.now());
  const holds = answer.verdict === 'clean' && !watch.navigating && watch.commitCount === before.commits && !requested;
  if (!holds) await settle(page, before, deadline);
  return holds;
}

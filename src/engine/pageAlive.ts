import type { Page } from 'playwright';
import { isOver, narrowed, pause, raceDeadline, type Deadline } from '../progress/deadline.js';

/** How long a page that may be dead gets to answer, and then how long its browser's exit gets to be noticed. */
const ANSWER_LIMIT_MS = 1_000;
const EXIT_NOTICE_MS = 250;

/** The page closed, or its browser went away (a crash): a failure that may pass on a new browser. */
export function pageGone(page: Page): boolean {
  return page.isClosed() || !(page.context().browser()?.isConnected() ?? true);
}

/**
 * After a step could not be shown safe: was it because the page died? A page that does not
 * answer is given a moment for its browser's exit to be noticed (a killed browser's pipe closes a
 * little after the page stops answering). Bounded: a page whose main thread is busy does not
 * answer at all, and is not dead. Both waits end by the run's `deadline`: a page cut off by it
 * before it answered is dead only if it is gone once the exit had its moment.
 */
export async function pageDied(page: Page, deadline: Deadline): Promise<boolean> {
  if (pageGone(page)) return true;
  const answered = page.evaluate('1').then(
    () => true,
    () => false,
  );
  // No answer in its second is a busy page, not a dead one; cut off sooner by the run's deadline, it is looked at once more.
  if (await raceDeadline(narrowed(deadline, ANSWER_LIMIT_MS), answered, () => isOver(deadline) ? false : true)) return false;
  await pause(narrowed(deadline, EXIT_NOTICE_MS), EXIT_NOTICE_MS);
  return pageGone(page);
}

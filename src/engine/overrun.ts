import type { Page } from 'playwright';
import { deadlineIn, raceDeadline } from '../progress/deadline.js';
import type { RunContext } from './runContext.js';

/** Past the run's deadline, this long for its own bounded waits to end it with their own messages. */
const OVERRUN_GRACE_MS = 5_000;
/** A page that stopped answering may not close either: the run does not wait on it past this. */
const PAGE_CLOSE_LIMIT_MS = 2_000;

/**
 * The run's last guard against a hang: `work` (the run's loop) ends by the deadline plus a grace,
 * whatever it waits on. A page call that never settles (a browser killed while its children still
 * hold the protocol pipe leaves calls pending forever) would otherwise hold the run, and a daemon's
 * slot with it. Past the grace the page is closed (a late answer then acts on nothing) and the run
 * fails with a timeout, so it is still recorded.
 */
export async function withinOverrun<T>(work: Promise<T>, page: Pick<Page, 'close'>, context: RunContext, graceMs = OVERRUN_GRACE_MS): Promise<T> {
  // The loop may still end later, on its own: its outcome is not wanted then (raceDeadline ignores it).
  return raceDeadline({ at: context.deadline + graceMs }, work, () => {
    void raceDeadline(deadlineIn(PAGE_CLOSE_LIMIT_MS), page.close({ runBeforeUnload: false }), () => undefined).catch(() => undefined);
    throw context.timeoutError('and the step under way did not end (the page stopped answering)');
  });
}

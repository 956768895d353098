import type { Page } from 'playwright';
import type { RunContext } from './runContext.js';

/** Past the run's deadline, this long for its own bounded waits to end it with their own messages. */
const OVERRUN_GRACE_MS = 5_000;

/**
 * The run's last guard against a hang: `work` (the run's loop) ends by the deadline plus a grace,
 * whatever it waits on. A page call that never settles (a browser killed while its children still
 * hold the protocol pipe leaves calls pending forever) would otherwise hold the run, and a daemon's
 * slot with it. Past the grace the page is closed (a late answer then acts on nothing) and the run
 * fails with a timeout, so it is still recorded.
 */
export async function withinOverrun<T>(work: Promise<T>, page: Pick<Page, 'close'>, context: RunContext, graceMs = OVERRUN_GRACE_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const overrun = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      void Promise.race([page.close({ runBeforeUnload: false }).catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 2_000))]);
      reject(context.timeoutError('and the step under way did not end (the page stopped answering)'));
    }, Math.max(0, context.deadline - Date.now()) + graceMs);
  });
  try {
    return await Promise.race([work, overrun]);
  } finally {
    clearTimeout(timer);
    // The loop may still end later, on its own: its outcome is not wanted then.
    work.catch(() => undefined);
  }
}

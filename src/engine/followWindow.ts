import { cdpSession } from '../checks/cdp.js';
import { watchChanges } from '../checks/pageChanges.js';
import { warmDocument } from '../checks/pageKit.js';
import { narrowed, withinDeadline } from '../progress/deadline.js';
import { describeWindow } from './runWindows.js';
import type { RunState } from './runState.js';

/** Starting to watch a page: one evaluate, normally a few ms. */
export const START_LIMIT_MS = 5_000;

/** Before the first step: the page's change log (bounded, since a page a dialog holds answers nothing). */
export async function startWatching(run: RunState): Promise<void> {
  // The checks' own in-page code is readied beside it (pageKit.ts), and rote's own DevTools
  // session opened (20 ms on the intake form): the first step's capture and reads need it.
  warmDocument(run.page);
  void cdpSession(run.page).catch(() => undefined);
  // Each document the steps load keeps the change log from its DOMContentLoaded (pageChanges.ts).
  // Not waited for: until it is in place, settling installs the log when it first asks, as it always did.
  void run.changeLogAtLoad.watch(run.page);
  await withinDeadline(narrowed(run.context, START_LIMIT_MS), watchChanges(run.page), 'starting to watch the page').catch(() => undefined);
}

/**
 * Moves the run to the window it is in now (see RunWindows): a window the last step opened, once
 * its document is there, or back to the opener when the window closed. Every check, capture and
 * action after this is on that window, which keeps its own account of the documents it loaded
 * (DocumentAccounts). True when the run moved.
 */
export async function followWindow(run: RunState): Promise<boolean> {
  const next = run.windows.active;
  if (next === run.page) return false;
  const { context } = run;
  await next.waitForLoadState('domcontentloaded', { timeout: Math.max(1, Math.min(context.deadline, context.within(START_LIMIT_MS)) - Date.now()) }).catch(() => undefined);
  // A window on another origin is held to the run's origins as the page is: no step is done there.
  if (!next.isClosed()) run.input.origins.checkPage(next, run.ledger.steps.length);
  run.documents.switchTo(next);
  run.page = next;
  run.env.page = next;
  const window = run.windows.indexOf(next);
  run.env.window = window;
  void run.changeLogAtLoad.watch(next);
  await withinDeadline(narrowed(context, START_LIMIT_MS), watchChanges(next), 'starting to watch the window').catch(() => undefined);
  context.log(`now in ${describeWindow(window)}: ${next.isClosed() ? '(closed)' : next.url()}`);
  return true;
}

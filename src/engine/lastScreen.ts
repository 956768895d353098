import type { Page } from 'playwright';
import { maskScreenshot } from '../checks/secretMask.js';
import { viewportScreenshot } from '../checks/visual.js';
import type { BoundParams } from '../params/boundParams.js';
import { deadlineIn, raceDeadline } from '../progress/deadline.js';
import { pageGone } from './pageAlive.js';

/** A failed run's screen may be mid-navigation or frozen: its picture is worth this much wait, no more. */
const LAST_SCREEN_LIMIT_MS = 3000;
/** A run already past its deadline (the usual failure) gets its picture only if it comes at once. */
const LATE_LIMIT_MS = 500;

/**
 * The screen a failed run ended on, secrets painted over, for the report; undefined when the page
 * is gone or cannot be captured in time (the failure is reported either way).
 */
export async function lastScreen(page: Page, params: BoundParams, deadline: number): Promise<Buffer | undefined> {
  if (pageGone(page)) return undefined;
  const limitMs = Math.max(LATE_LIMIT_MS, Math.min(LAST_SCREEN_LIMIT_MS, deadline - Date.now()));
  const capture = async () => {
    const viewport = page.viewportSize() ?? (await page.evaluate(() => ({ width: window.innerWidth, height: window.innerHeight })));
    // Kept only when the page could be searched for secrets: a failed run is often mid-navigation.
    return maskScreenshot(page, await viewportScreenshot(page, deadlineIn(limitMs)), params, viewport, { strict: true });
  };
  // The secret lookup runs in the page, which may not answer at all (a busy main thread): bounded as a whole.
  return raceDeadline(deadlineIn(limitMs + LATE_LIMIT_MS), capture().catch(() => undefined), () => undefined);
}

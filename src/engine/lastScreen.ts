import type { Page } from 'playwright';
import { maskScreenshot } from '../checks/secretMask.js';
import { viewportScreenshot } from '../checks/visual.js';
import type { BoundParams } from '../params/boundParams.js';
import { deadlineIn } from '../progress/deadline.js';
import { pageGone } from './pageAlive.js';

/** A failed run's screen may be mid-navigation or frozen: its picture is worth this much wait, no more. */
const LAST_SCREEN_LIMIT_MS = 3000;

/**
 * The screen a failed run ended on, secrets painted over, for the report; undefined when the page
 * is gone or cannot be captured in time (the failure is reported either way).
 */
export async function lastScreen(page: Page, params: BoundParams): Promise<Buffer | undefined> {
  if (pageGone(page)) return undefined;
  const capture = async () => {
    const viewport = page.viewportSize() ?? (await page.evaluate(() => ({ width: window.innerWidth, height: window.innerHeight })));
    return maskScreenshot(page, await viewportScreenshot(page, deadlineIn(LAST_SCREEN_LIMIT_MS)), params, viewport);
  };
  // The secret lookup runs in the page, which may not answer at all (a busy main thread): bounded as a whole.
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), 2 * LAST_SCREEN_LIMIT_MS)));
  try {
    return await Promise.race([capture().catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
  }
}

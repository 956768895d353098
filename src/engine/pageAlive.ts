import type { Page } from 'playwright';

/** The page closed, or its browser went away (a crash): a failure that may pass on a new browser. */
export function pageGone(page: Page): boolean {
  return page.isClosed() || !(page.context().browser()?.isConnected() ?? true);
}

/**
 * After a step could not be shown safe: was it because the page died? A page that does not
 * answer is given a moment for its browser's exit to be noticed (a killed browser's pipe closes a
 * little after the page stops answering). Bounded: a page whose main thread is busy does not
 * answer at all, and is not dead.
 */
export async function pageDied(page: Page): Promise<boolean> {
  if (pageGone(page)) return true;
  const answers = await Promise.race([
    page.evaluate('1').then(
      () => true,
      () => false,
    ),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 1_000)),
  ]);
  if (answers) return false;
  await new Promise((resolve) => setTimeout(resolve, 250));
  return pageGone(page);
}

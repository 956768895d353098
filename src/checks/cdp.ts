import type { CDPSession, Page } from 'playwright';

const sessions = new WeakMap<Page, Promise<CDPSession>>();

/** One Chrome DevTools Protocol session per page, opened on first use. */
export function cdpSession(page: Page): Promise<CDPSession> {
  let session = sessions.get(page);
  if (!session) {
    session = page.context().newCDPSession(page);
    sessions.set(page, session);
    session.catch(() => sessions.delete(page));
  }
  return session;
}

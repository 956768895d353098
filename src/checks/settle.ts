import type { Page, Request } from 'playwright';
import { remainingMs, type Deadline } from '../progress/deadline.js';

/**
 * Watches the main frame for document navigations, so that after an action rote waits for a
 * navigation the action started instead of checking the next step against the old page.
 */
class NavigationWatch {
  private pending = new Set<Request>();
  private commits = 0;

  constructor(page: Page) {
    page.on('request', (request) => {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) this.pending.add(request);
    });
    const done = (request: Request) => this.pending.delete(request);
    page.on('requestfailed', done);
    // A navigation answered without a document (204, a download) finishes without a commit.
    page.on('requestfinished', (request) => setTimeout(() => done(request), 50));
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) {
        this.commits++;
        this.pending.clear();
      }
    });
  }

  get commitCount(): number {
    return this.commits;
  }

  get navigating(): boolean {
    return this.pending.size > 0;
  }
}

const watches = new WeakMap<Page, NavigationWatch>();

export function navigationWatch(page: Page): NavigationWatch {
  let watch = watches.get(page);
  if (!watch) {
    watch = new NavigationWatch(page);
    watches.set(page, watch);
  }
  return watch;
}

/**
 * Resolves once the DOM has had no mutation for `quietMs` (at most `maxMs`). The observer stays
 * installed on the document, so a page that is already quiet resolves at once; on a document
 * seen for the first time it waits one full quiet period.
 */
const DOM_QUIET = `(function (quietMs, maxMs) {
  var state = window.__roteMutations;
  if (!state) {
    state = window.__roteMutations = { last: performance.now(), leaving: false };
    new MutationObserver(function () { state.last = performance.now(); })
      .observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    // Fired synchronously when a click or submit starts leaving the document, before any request.
    window.addEventListener('beforeunload', function () { state.leaving = true; });
  }
  return new Promise(function (resolve) {
    var start = performance.now();
    (function check() {
      var now = performance.now();
      if (state.leaving) resolve('leaving');
      else if (now - state.last >= quietMs || now - start >= maxMs) resolve('quiet');
      else setTimeout(check, Math.max(5, quietMs - (now - state.last)));
    })();
  });
})`;

export type SettleOptions = { quietMs?: number };

/** Settling is bounded by this even when the run has longer: a slow page is the next step's checks' business. */
const SETTLE_LIMIT_MS = 10_000;

/**
 * Lets the page come to rest after an action: a navigation the action started has committed
 * and reached DOMContentLoaded, and the DOM has been quiet for a moment. Bounded by the run's
 * deadline and SETTLE_LIMIT_MS; a slow page is caught by the next step's checks, which wait for
 * their target.
 */
export async function settle(page: Page, commitsBefore: number, deadline: Deadline, options: SettleOptions = {}): Promise<void> {
  const quietMs = options.quietMs ?? 40;
  const until = Math.min(deadline.at, Date.now() + SETTLE_LIMIT_MS);
  const watch = navigationWatch(page);
  for (;;) {
    const remaining = Math.min(until - Date.now(), remainingMs(deadline));
    if (remaining <= 0 || deadline.signal?.aborted || page.isClosed()) return;
    if (watch.navigating) {
      await page.waitForEvent('framenavigated', { timeout: remaining }).catch(() => {});
      continue;
    }
    if (watch.commitCount !== commitsBefore) {
      await page.waitForLoadState('domcontentloaded', { timeout: remaining }).catch(() => {});
      commitsBefore = watch.commitCount;
    }
    const state = await page.evaluate(`${DOM_QUIET}(${quietMs}, ${Math.min(1000, remaining)})`).catch(() => 'torn-down');
    if (state === 'leaving') {
      // The document is being left but the request may not have reached us yet: wait for the commit.
      await page.waitForEvent('framenavigated', { predicate: (frame) => frame === page.mainFrame(), timeout: remaining }).catch(() => {});
      continue;
    }
    // Quiet, and nothing started meanwhile: settled. A torn-down context means a navigation began.
    if (state === 'quiet' && !watch.navigating && watch.commitCount === commitsBefore) return;
  }
}

import type { Frame, Page, Request } from 'playwright';
import { remainingMs, type Deadline } from '../progress/deadline.js';
import { CHANGE_LOG_JS } from './pageChanges.js';
import { evaluateKit, kitFunction, warmDocument } from './pageKit.js';
import { requestWatch } from './stepRequests.js';
import { httpOrigin } from './urlCheck.js';

/**
 * Watches the main frame for document navigations, so that after an action rote waits for a
 * navigation the action started instead of checking the next step against the old page. A frame
 * of the page's own origin that loads a document again (a reload, a new src) counts as well: the
 * fields a run filled in it are gone just as with the page's own reload. A frame's first document
 * (frames arriving with their page) does not, nor does any frame of another origin.
 */
class NavigationWatch {
  private pending = new Set<Request>();
  private commits = 0;
  /** New documents only: a commit that followed a navigation request (pushState and hash changes make none). */
  private documents = 0;
  /**
   * Child frames that have shown a document (their next one is a new document of the page), each
   * with the main frame's commit count when it last did: which of the page's documents it is part of.
   */
  private readonly loadedUnder = new WeakMap<Frame, number>();

  constructor(private readonly page: Page) {
    // Frames already showing a document when the watch begins (it begins with the run).
    for (const frame of page.frames()) if (frame !== page.mainFrame() && frame.url() !== '' && frame.url() !== 'about:blank') this.loadedUnder.set(frame, 0);
    page.on('request', (request) => {
      if (!request.isNavigationRequest()) return;
      const frame = request.frame();
      // A frame's first document is part of its page arriving, not a load that loses anything.
      if (frame === page.mainFrame() || (this.loadedUnder.has(frame) && this.watched(frame, request.url()))) this.pending.add(request);
    });
    const done = (request: Request) => this.pending.delete(request);
    page.on('requestfailed', done);
    // A navigation answered without a document (204, a download) finishes without a commit.
    page.on('requestfinished', (request) => setTimeout(() => done(request), 50));
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) {
        this.commits++;
        if (this.pending.size > 0) this.documents++;
        this.pending.clear();
        return;
      }
      const requested = [...this.pending].filter((request) => request.frame() === frame);
      requested.forEach((request) => this.pending.delete(request));
      if (requested.length > 0 && this.watched(frame, frame.url())) this.documents++;
      this.loadedUnder.set(frame, this.commits);
    });
    // A frame of the page's origin taken away while its page stays (replaced by a new one) takes
    // what was entered in it along: a new document too. Frames leaving with their page do not
    // count: its navigation is under way, or the frame was part of a document the main frame has
    // left. Not a time since the main frame's commit: a fast replay swaps a frame within it.
    page.on('framedetached', (frame) => {
      const loadedUnder = this.loadedUnder.get(frame);
      if (loadedUnder === undefined) return;
      const withPage = [...this.pending].some((request) => request.frame() === page.mainFrame()) || loadedUnder < this.commits;
      if (!withPage && this.watched(frame, frame.url())) this.documents++;
    });
  }

  /** The main frame, or a child frame loading a document of the page's own origin (one a run can act in). */
  private watched(frame: Frame, url: string): boolean {
    if (frame === this.page.mainFrame()) return true;
    const own = httpOrigin(this.page.mainFrame().url());
    return own !== undefined && httpOrigin(url) === own;
  }

  get commitCount(): number {
    return this.commits;
  }

  /** New documents the main frame has loaded (same-document navigations not counted). */
  get documentCount(): number {
    return this.documents;
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
 * Resolves once the DOM has had no change the action could have caused for `quietMs` (at most
 * `maxMs`). An element that keeps moving is not waited for, or every step on such a page would
 * cost the whole bound: one that was already changing in the CHURN_MS before the action (a clock,
 * a spinner), or one that has changed CHURN_TIMES times over CHURN_SPAN_MS since (a process the
 * action started: the next step's own checks wait for the state it needs). The log stays installed on the document,
 * so a page that is already quiet resolves at once; on a document seen for the first time it
 * waits one full quiet period.
 */
const CHURN_MS = 1500;
const CHURN_TIMES = 3;
/** ...over at least this long: a list built in a burst of chunks is the action's answer, and is waited for. */
const CHURN_SPAN_MS = 250;
const DOM_QUIET = kitFunction('dom-quiet', `function (quietMs, maxMs, actionAt, provisional) {
  ${CHANGE_LOG_JS}
  var state = __roteChanges();
  var lastCaused = function () {
    var churning = new Set(), times = new Map(), last = state.installedAt;
    for (var i = 0; i < state.events.length; i++) {
      var e = state.events[i];
      // The document's arrival (a log begun at load, before rote's first question) is not motion.
      if (e.t >= actionAt - ${CHURN_MS} && e.t < actionAt && !(e.t < state.listenedAt)) churning.add(e.el);
      if (e.t < actionAt) continue;
      var seen = times.get(e.el) || [];
      if (seen[seen.length - 1] !== e.t) seen.push(e.t);
      times.set(e.el, seen);
    }
    times.forEach(function (seen, el) {
      if (churning.has(el) || (seen.length >= ${CHURN_TIMES} && seen[seen.length - 1] - seen[0] >= ${CHURN_SPAN_MS})) return;
      if (seen[seen.length - 1] > last) last = seen[seen.length - 1];
    });
    return last;
  };
  // Since the action, or in the last second by the page's own clock (which may not be this process's).
  var submitted = function () {
    var submits = state.submits || [], now = Date.now();
    for (var i = 0; i < submits.length; i++) if ((submits[i].t >= actionAt || now - submits[i].t < 1000) && !submits[i].event.defaultPrevented) return true;
    return false;
  };
  // What the change log does not see: the focus (through shadow roots and frames) and the scroll.
  var focusNow = function () {
    var el = document.activeElement;
    for (var depth = 0; el && depth < 8; depth++) {
      if (el.shadowRoot && el.shadowRoot.activeElement) { el = el.shadowRoot.activeElement; continue; }
      var inner = null;
      try { inner = /^(IFRAME|FRAME)$/.test(el.tagName) && el.contentDocument ? el.contentDocument.activeElement : null; } catch (e) { inner = null; }
      if (!inner) break;
      el = inner;
    }
    return el;
  };
  // Any change at all since the action, the action's or not: the next step's checks may have read
  // the page before this look (they start beside it), so a change a while ago is not quiet enough.
  var changedSinceAction = function () {
    // Logged in time order: the newest is enough.
    var newest = state.events[state.events.length - 1];
    return !!newest && newest.t >= actionAt;
  };
  return new Promise(function (resolve) {
    var start = Date.now();
    if (provisional) {
      // Nothing changed since the action, no form on its way, and no frame whose changes the log
      // would not see: settled for now, and a sentinel queued behind the tasks the action queued
      // says later whether one of them changed anything at all (see settleConfirm.ts).
      if (!state.leaving && !submitted() && !changedSinceAction() && !document.querySelector('iframe,frame')) {
        // What the look saw is kept on the sentinel: a last look asks whether it still holds (lastLook.ts).
        var sentinel = state.sentinel = { actionAt: actionAt, done: false, dirty: false, waiters: [], seq: state.seq, focus: focusNow(), scrollX: window.scrollX, scrollY: window.scrollY };
        sentinel.changed = function () { return state.leaving || submitted() || state.seq !== sentinel.seq || focusNow() !== sentinel.focus || window.scrollX !== sentinel.scrollX || window.scrollY !== sentinel.scrollY; };
        // A look sent beside this one may have come first, and waits for its sentinel (readProof.ts).
        (state.onSentinel || []).splice(0).forEach(function (told) { try { told(); } catch (e) {} });
        setTimeout(function () {
          sentinel.done = true;
          sentinel.dirty = sentinel.changed();
          // One waiter that throws does not keep the others (the confirmation among them) waiting.
          sentinel.waiters.forEach(function (wake) { try { wake(); } catch (e) {} });
        }, 0);
        resolve('provisional');
        return;
      }
    }
    function check() {
      var now = Date.now(), last = lastCaused();
      if (state.leaving) resolve('leaving');
      else if (now - last >= quietMs) resolve('quiet');
      else if (now - start >= maxMs) resolve('bounded');
      else setTimeout(check, Math.max(5, quietMs - (now - last)));
    }
    // Not at once: a click on a submit button queues the form's navigation as a task, and on a
    // busy machine this check can arrive before it has run. After the tasks already queued, the
    // page has said it is leaving (beforeunload), or it is staying.
    setTimeout(check, 0);
  });
}`);

export type SettleOptions = {
  quietMs?: number;
  /**
   * The page may be found settled before the tasks the action queued have run (see DOM_QUIET): the
   * caller then confirms it (settleConfirm.ts) before it acts on what it reads meanwhile.
   */
  provisional?: boolean;
};

/** A page that said it was leaving and has not left within this long is staying. */
const LEAVING_LIMIT_MS = 1500;
const STAYING = `(function () { if (window.__roteChangeLog) window.__roteChangeLog.leaving = false; })()`;

/** Taken just before an action: what settling after it compares with. */
export type BeforeAction = { commits: number; at: number };

export function beforeAction(page: Page): BeforeAction {
  // Installed before the action, so that it sees the requests the action starts.
  requestWatch(page);
  return { commits: navigationWatch(page).commitCount, at: Date.now() };
}

/** Settling is bounded by this even when the run has longer: a slow page is the next step's checks' business. */
const SETTLE_LIMIT_MS = 10_000;

/**
 * How settling ended: the page came to rest, it kept changing until the one-second bound, or the
 * run's deadline (or SETTLE_LIMIT_MS, or a closed page) ended it first; or, when asked for, it was
 * quiet before the tasks the action queued ran, which confirmSettled still has to confirm.
 */
export type Settled = 'quiet' | 'bounded' | 'out-of-time' | 'provisional';

/**
 * Lets the page come to rest after an action: a navigation the action started has committed
 * and reached DOMContentLoaded, the fetch and XHR requests the action started (those begun by
 * the time the DOM first fell quiet: a page's own polling later is not the step's) have ended, and
 * the DOM has been quiet for a moment after them. Bounded by the run's
 * deadline and SETTLE_LIMIT_MS; a slow page is caught by the next step's checks, which wait for
 * their target.
 */
export async function settle(page: Page, before: BeforeAction, deadline: Deadline, options: SettleOptions = {}): Promise<Settled> {
  let commitsBefore = before.commits;
  // Changes before the action began are the page's own, not the action's.
  const actionAt = before.at;
  const quietMs = options.quietMs ?? 40;
  const until = Math.min(deadline.at, Date.now() + SETTLE_LIMIT_MS);
  const watch = navigationWatch(page);
  let requestsWaited = false;
  // Only a first look with nothing under way yet may find the page settled for now.
  let provisional = options.provisional === true;
  for (;;) {
    const remaining = Math.min(until - Date.now(), remainingMs(deadline));
    if (remaining <= 0 || deadline.signal?.aborted || page.isClosed()) return 'out-of-time';
    if (watch.navigating || watch.commitCount !== commitsBefore) provisional = false;
    if (watch.navigating) {
      await page.waitForEvent('framenavigated', { timeout: remaining }).catch(() => {});
      continue;
    }
    if (watch.commitCount !== commitsBefore) {
      await page.waitForLoadState('domcontentloaded', { timeout: remaining }).catch(() => {});
      commitsBefore = watch.commitCount;
      // A new document: readied for the next step's checks while it comes to rest.
      warmDocument(page);
    }
    const state = await evaluateKit(page, DOM_QUIET, [quietMs, Math.min(1000, remaining), actionAt, provisional]).catch(() => 'torn-down');
    if (state === 'provisional') {
      if (!watch.navigating && watch.commitCount === commitsBefore && requestWatch(page).startedSince(actionAt).length === 0) return state;
      // Something is under way already: settled the usual way.
      provisional = false;
      continue;
    }
    if (state === 'leaving') {
      // The document is being left but the request may not have reached us yet: wait for the commit.
      const committed = await page
        .waitForEvent('framenavigated', { predicate: (frame) => frame === page.mainFrame(), timeout: Math.min(remaining, LEAVING_LIMIT_MS) })
        .then(() => true, () => false);
      // No document came (a download, a "Leave site?" answered Stay): the page is staying after all.
      if (!committed && !watch.navigating && watch.commitCount === commitsBefore) await page.evaluate(STAYING).catch(() => undefined);
      continue;
    }
    // Quiet (or still changing at the bound), and nothing started meanwhile: settled. A torn-down
    // context means a navigation began.
    if ((state === 'quiet' || state === 'bounded') && !watch.navigating && watch.commitCount === commitsBefore) {
      const started = requestsWaited ? [] : requestWatch(page).startedSince(actionAt);
      requestsWaited = true;
      if (started.length === 0) return state;
      // Then quiet again: what the answers change on the page is the action's too.
      await requestWatch(page).ended(started, remaining);
    }
  }
}

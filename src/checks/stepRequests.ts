import type { Page, Request } from 'playwright';

/**
 * The page's fetch and XHR requests under way, each with when it began (as this process saw it),
 * in every frame of the page. A step's work is often such a request (a Save by fetch): settling
 * waits for the ones the step started, so a run does not end, or go on, while its save is still on
 * its way (found by the fault suite: a run said replayed, its context closed, and the save never
 * arrived).
 */
class RequestWatch {
  private readonly open = new Map<Request, number>();
  private readonly waiters = new Set<() => void>();
  /** When the latest requests began, ended or not (newest last, a bounded few). */
  private readonly starts: number[] = [];

  constructor(page: Page) {
    page.on('request', (request) => {
      const type = request.resourceType();
      if (type !== 'fetch' && type !== 'xhr') return;
      const at = Date.now();
      this.open.set(request, at);
      this.starts.push(at);
      if (this.starts.length > 64) this.starts.shift();
    });
    const done = (request: Request) => {
      if (!this.open.delete(request)) return;
      for (const wake of this.waiters) wake();
    };
    page.on('requestfinished', done);
    page.on('requestfailed', done);
    page.on('close', () => {
      this.open.clear();
      for (const wake of this.waiters) wake();
    });
  }

  /** The requests under way that began at or after `since` (epoch ms). */
  startedSince(since: number): Request[] {
    return [...this.open].filter(([, at]) => at >= since).map(([request]) => request);
  }

  /** Whether any request began between `since` and `until` (epoch ms), whether it has ended or not. */
  anyStartedBetween(since: number, until: number): boolean {
    return this.starts.some((at) => at >= since && at <= until);
  }

  /** Resolves when none of `requests` is under way any more, or after `ms`: whether they all ended. */
  async ended(requests: readonly Request[], ms: number): Promise<boolean> {
    const allEnded = () => requests.every((request) => !this.open.has(request));
    if (allEnded()) return true;
    return new Promise<boolean>((resolve) => {
      const finish = (ended: boolean) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(ended);
      };
      const check = () => {
        if (allEnded()) finish(true);
      };
      const timer = setTimeout(() => finish(false), Math.max(0, ms));
      this.waiters.add(check);
    });
  }
}

const watches = new WeakMap<Page, RequestWatch>();

/** The page's request watch, installed on first use (before a step acts, so it sees what the step starts). */
export function requestWatch(page: Page): RequestWatch {
  let watch = watches.get(page);
  if (!watch) {
    watch = new RequestWatch(page);
    watches.set(page, watch);
  }
  return watch;
}

import { RoteError } from '../errors/roteError.js';

/**
 * When an operation must be over, and the caller's abort signal: what bounds every wait of a run
 * (Playwright's Progress, in small). Layers below the engine take one instead of fixed timeouts,
 * so no wait, screenshot or agent call can outlive the run that asked for it.
 */
export type Deadline = {
  /** Epoch milliseconds. */
  readonly at: number;
  readonly signal?: AbortSignal | undefined;
};

/** A deadline `ms` from now: a wait's own patience, or one for callers outside a run (tests, tools). */
export function deadlineIn(ms: number, signal?: AbortSignal): Deadline {
  return { at: Date.now() + ms, signal };
}

/** A sooner deadline for one wait: at most `ms` from now, never past `deadline`. */
export function narrowed(deadline: Deadline, ms: number): Deadline {
  return { at: Math.min(deadline.at, Date.now() + ms), signal: deadline.signal };
}

/** Milliseconds left, at most `capMs`, never negative. */
export function remainingMs(deadline: Deadline, capMs = Number.POSITIVE_INFINITY): number {
  return Math.max(0, Math.min(capMs, deadline.at - Date.now()));
}

/** Past the deadline, or aborted: a wait should stop now. */
export function isOver(deadline: Deadline): boolean {
  return deadline.signal?.aborted === true || Date.now() >= deadline.at;
}

/** Why a race against a deadline ended before its work did. */
export type Cutoff = 'timeout' | 'aborted';

/**
 * The one way work races its bound: settles as `work` does, or as `cutoff(why)` does once the
 * deadline passes or the signal aborts, whichever comes first (`cutoff` returns a stand-in value
 * or throws). The timer and the listener are removed either way. The work itself is not
 * cancelled (a model request may still answer); its late outcome, a rejection too, is ignored.
 */
export function raceDeadline<T, L = never>(deadline: Deadline, work: Promise<T>, cutoff: (why: Cutoff) => L): Promise<T | Awaited<L>> {
  return new Promise<T | Awaited<L>>((resolve, reject) => {
    let done = false;
    const finish = (settle: () => void) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      deadline.signal?.removeEventListener('abort', onAbort);
      settle();
    };
    const cut = (why: Cutoff) =>
      finish(() => {
        try {
          Promise.resolve(cutoff(why)).then(resolve, reject);
        } catch (error) {
          reject(error);
        }
      });
    const onAbort = () => cut('aborted');
    const timer = setTimeout(() => cut('timeout'), Math.max(0, deadline.at - Date.now()));
    deadline.signal?.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => finish(() => resolve(value)),
      (error: unknown) => finish(() => reject(error)),
    );
    if (deadline.signal?.aborted) cut('aborted');
  });
}

/**
 * Settles with `work`, or rejects once the deadline passes or the signal aborts, whichever comes
 * first. `what` names the operation in the error.
 */
export function withinDeadline<T>(deadline: Deadline, work: Promise<T>, what: string): Promise<T> {
  return raceDeadline(deadline, work, (why) => {
    throw why === 'aborted' ? abortedError(what, deadline.signal!) : new RoteError('timeout', `${what}: still running when the run's deadline passed`);
  });
}

/** Waits `ms`, or less when the deadline comes first or the signal aborts (it never throws). */
export function pause(deadline: Deadline, ms: number): Promise<void> {
  const wait = remainingMs(deadline, ms);
  if (wait === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, wait);
    const onAbort = () => done();
    deadline.signal?.addEventListener('abort', onAbort, { once: true });
    function done(): void {
      clearTimeout(timer);
      deadline.signal?.removeEventListener('abort', onAbort);
      resolve();
    }
  });
}

function abortedError(what: string, signal: AbortSignal): RoteError {
  return new RoteError('aborted', `${what}: aborted`, { cause: signal.reason });
}

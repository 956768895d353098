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

/** A deadline that never comes first: for callers outside a run (tests, tools). */
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

/**
 * Settles with `work`, or rejects once the deadline passes or the signal aborts, whichever comes
 * first. `what` names the operation in the error. The work itself is not cancelled (a model
 * request may still answer); its late result is ignored.
 */
export function withinDeadline<T>(deadline: Deadline, work: Promise<T>, what: string): Promise<T> {
  if (deadline.signal?.aborted) return Promise.reject(abortedError(what, deadline.signal));
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => finish(() => reject(new RoteError('timeout', `${what}: still running when the run's deadline passed`))), Math.max(0, deadline.at - Date.now()));
    const onAbort = () => finish(() => reject(abortedError(what, deadline.signal!)));
    deadline.signal?.addEventListener('abort', onAbort, { once: true });
    let done = false;
    function finish(settle: () => void): void {
      if (done) return;
      done = true;
      clearTimeout(timer);
      deadline.signal?.removeEventListener('abort', onAbort);
      settle();
    }
    work.then(
      (value) => finish(() => resolve(value)),
      (error: unknown) => finish(() => reject(error)),
    );
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

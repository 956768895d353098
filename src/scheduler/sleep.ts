/** Waits `ms`, or less when `stop` aborts first; never throws, and keeps no timer alive after a stop. */
export function sleepUnlessStopped(ms: number, stop?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (stop?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      stop?.removeEventListener('abort', done);
      resolve();
    }
    stop?.addEventListener('abort', done, { once: true });
  });
}

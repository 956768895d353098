/**
 * `work`, or `fallback` once `ms` have passed, whichever comes first. The timer is cleared when
 * the work ends first: a bound left pending would keep the suite's process alive long after it
 * printed its table.
 */
export async function within<T, F>(work: Promise<T>, ms: number, fallback: F): Promise<T | F> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<F>((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The catalogue's randomness: one small seeded generator per page load, derived from the app's
 * seed and the load's number. A load draws what it needs and nothing leaks into the next one, so
 * the n-th load of an app started with a given seed always looks the same, however many numbers
 * earlier loads drew.
 */

export type Random = {
  /** An integer from `min` to `max`, both included. */
  int(min: number, max: number): number;
  /** A shuffled copy. */
  shuffle<T>(items: readonly T[]): T[];
  /** Six hex digits. */
  hex(): string;
};

/** mulberry32: tiny, fast and plenty for shuffling a form (and for the fault suite's timings). */
export function mulberry32(state: number): () => number {
  let a = state >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The generator of load number `load` (0, 1, 2, ...) of an app started with `seed`. */
export function randomForLoad(seed: number, load: number): Random {
  const next = mulberry32((seed ^ Math.imul(load + 1, 0x9e3779b1)) >>> 0);
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    int,
    shuffle<T>(items: readonly T[]): T[] {
      const out = [...items];
      for (let i = out.length - 1; i > 0; i--) {
        const j = int(0, i);
        [out[i], out[j]] = [out[j]!, out[i]!];
      }
      return out;
    },
    hex: () => int(0, 0xffffff).toString(16).padStart(6, '0'),
  };
}

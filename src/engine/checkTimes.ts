/**
 * The checks before a cached step, in the order they run (see preCheck.ts). Each is timed on its
 * own into the step's result (StepResult.checks), so a run says what each check cost.
 */
export const CHECK_NAMES = ['documents', 'window', 'values', 'url', 'valuesAhead', 'watchedValues', 'tool', 'target', 'visual', 'select', 'form', 'wait'] as const;

export type CheckName = (typeof CHECK_NAMES)[number];

/** Milliseconds spent in each check, summed over every candidate and every poll of one step. */
export type CheckTimings = Partial<Record<CheckName, number>>;

export class CheckTimes {
  private readonly spent = new Map<CheckName, number>();

  add(name: CheckName, ms: number): void {
    this.spent.set(name, (this.spent.get(name) ?? 0) + ms);
  }

  /** Milliseconds in one check so far. */
  of(name: CheckName): number {
    return this.spent.get(name) ?? 0;
  }

  /** The checks that ran, in their order, to a tenth of a millisecond. */
  toRecord(): CheckTimings {
    const record: CheckTimings = {};
    for (const name of CHECK_NAMES) {
      const ms = this.spent.get(name);
      if (ms !== undefined) record[name] = Math.round(ms * 10) / 10;
    }
    return record;
  }
}

/** `work`, its time added to `times` under `name` (when a step is being timed). */
export async function timed<T>(times: CheckTimes | undefined, name: CheckName, work: () => T | Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    times?.add(name, performance.now() - started);
  }
}

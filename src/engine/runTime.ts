import { z } from 'zod';

const spentMs = z.number().nonnegative();

/**
 * Where a run's time went, in whole milliseconds. The parts add up to the run's `durationMs`:
 * what a person asks of a slow run is whether the replay, its checks, the waits the recording
 * asked for or the agent took the time. Kept on the run record (the runs table's `time` column);
 * a report reads it with this schema, so a damaged or foreign value shows no time instead of failing.
 */
export const runTimeSchema = z.object({
  /** Cached and relocated steps: their actions and the settling after them (but for a step settled beside the next step's checks: that time is the checks'). */
  replayed: spentMs,
  /** The checks before cached steps (every candidate, every poll; a divergence's evidence too), waits excepted. */
  checks: spentMs,
  /** Waiting for what the recording waited for before a step (a progress, a label, a spinner gone). */
  waits: spentMs,
  /** The agent's turns: the page read for it, its calls, its actions and the look for a re-join. */
  agent: spentMs,
  /** The rest: the run's record, windows and dialogs, the end of the run. */
  other: spentMs,
});
export type RunTime = z.infer<typeof runTimeSchema>;

export const RUN_TIME_PARTS = ['replayed', 'checks', 'waits', 'agent', 'other'] as const satisfies readonly (keyof RunTime)[];

/** Adds up a run's time by part while it runs (RunState holds one). */
export class RunTimeAccount {
  private readonly spent = { replayed: 0, checks: 0, waits: 0, agent: 0 };

  /** Looking for the next cached step took `ms`, of which `waitMs` waited for a recorded moment. */
  looked(ms: number, waitMs: number): void {
    const waits = Math.min(ms, waitMs);
    this.spent.waits += waits;
    this.spent.checks += ms - waits;
  }

  add(part: 'replayed' | 'agent', ms: number): void {
    this.spent[part] += ms;
  }

  /** The parts, rounded, with what none of them holds as `other` (never below zero). */
  of(durationMs: number): RunTime {
    const replayed = Math.round(this.spent.replayed);
    const checks = Math.round(this.spent.checks);
    const waits = Math.round(this.spent.waits);
    const agent = Math.round(this.spent.agent);
    return { replayed, checks, waits, agent, other: Math.max(0, durationMs - replayed - checks - waits - agent) };
  }
}

/** `work`, its time added to the run's account under `part`. */
export async function accounted<T>(account: RunTimeAccount, part: 'replayed' | 'agent', work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    account.add(part, performance.now() - started);
  }
}

import { RUN_TIME_PARTS, type RunTime } from '../engine/runTime.js';

export type RunTimePart = keyof RunTime;

/** Each part of a run's time as a person reads it. */
export const TIME_PART_LABELS: Record<RunTimePart, string> = { replayed: 'replayed steps', checks: 'checks', waits: 'waits', agent: 'agent', other: 'other' };

/**
 * Where the time of some runs went: each part's milliseconds summed over them, and its share of
 * their sum (0..1; all 0 where no time was spent). One run's time is a split of one.
 */
export type TimeSplit = { runs: number; totalMs: number; ms: Record<RunTimePart, number>; share: Record<RunTimePart, number> };

/** The split of these times; null without any (a run that kept no time is left out by the caller). */
export function timeSplitOf(times: readonly RunTime[]): TimeSplit | null {
  if (times.length === 0) return null;
  const ms = byPart((part) => times.reduce((sum, time) => sum + time[part], 0));
  const totalMs = RUN_TIME_PARTS.reduce((sum, part) => sum + ms[part], 0);
  return { runs: times.length, totalMs, ms, share: byPart((part) => (totalMs > 0 ? ms[part] / totalMs : 0)) };
}

function byPart(value: (part: RunTimePart) => number): Record<RunTimePart, number> {
  return Object.fromEntries(RUN_TIME_PARTS.map((part) => [part, value(part)])) as Record<RunTimePart, number>;
}

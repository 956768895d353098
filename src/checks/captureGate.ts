import type { Page } from 'playwright';
import { RoteError } from '../errors/roteError.js';
import { deadlineIn, isOver, raceDeadline, withinDeadline, type Deadline } from '../progress/deadline.js';

/**
 * One capture at a time on a page. Chromium takes a clipped capture by emulating a viewport of the
 * clip's size for a moment and then restoring the size it found: two captures that overlap restore
 * each other's emulated size, and the page stays laid out in a viewport as small as a crop
 * (innerHeight 36), where every later check sees the page's background. Playwright queues its own
 * screenshots; rote also captures through the DevTools protocol directly (captureCrop), so every
 * capture rote takes, either way, goes through this gate.
 */
const lastCapture = new WeakMap<Page, Promise<void>>();

/** A capture Chromium has not answered in this long is stuck (a page mid-navigation): it no longer holds the gate. */
const HOLD_LIMIT_MS = 10_000;

/**
 * Runs `capture` (`what` names it in an error) once the page's previous capture has settled, waiting no longer than `deadline`.
 * The gate follows the capture itself, not a caller's race against its deadline: a capture given
 * up on still holds the gate until Chromium is done with it (or HOLD_LIMIT_MS), and a capture whose
 * caller gave up before its turn is not taken.
 */
export function oneCaptureAtATime<T>(page: Page, deadline: Deadline, what: string, capture: () => Promise<T>): Promise<T> {
  const previous = lastCapture.get(page) ?? Promise.resolve();
  const mine = previous.then(() => {
    if (isOver(deadline)) throw new RoteError('timeout', `${what}: still waiting for the capture before it when the run's deadline passed`);
    return capture();
  });
  const settled = mine.then(
    () => undefined,
    () => undefined,
  );
  lastCapture.set(page, raceDeadline(deadlineIn(HOLD_LIMIT_MS), settled, () => undefined));
  return withinDeadline(deadline, mine, what);
}

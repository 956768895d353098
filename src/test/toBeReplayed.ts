import type { ExpectMatcherState, MatcherReturnType } from '@playwright/test';
import type { RunResult } from '../engine/runResult.js';
import { describeOutcome } from './runSummary.js';

/** Results a test asserted on with toBeReplayed: the fixture leaves their verdict to the test. */
export const assertedResults = new WeakSet<object>();

/**
 * `expect(result).toBeReplayed()`: passes only when every step came from the cache (status
 * `replayed`). The failure names the step, its intent and the reason, so the test's error alone
 * says what changed on the page; the evidence images are attached to the report by the fixture.
 */
export function toBeReplayed(this: ExpectMatcherState, received: unknown): MatcherReturnType {
  const name = 'toBeReplayed';
  const hint = this.utils.matcherHint(name, 'result', '', { isNot: this.isNot });
  if (!isRunResult(received)) {
    return {
      name,
      pass: false,
      message: () => `${hint}\n\nExpected the result of rote.run(...), got ${this.utils.printReceived(received)}`,
    };
  }
  assertedResults.add(received);
  const pass = received.status === 'replayed';
  return {
    name,
    pass,
    expected: 'replayed',
    actual: received.status,
    message: () =>
      pass
        ? `${hint}\n\nExpected the run not to be replayed from the cache, but ${describeOutcome(received)}`
        : `${hint}\n\nExpected the run to be replayed from the cache, but ${describeOutcome(received)}\n\nRun status: ${received.status}`,
  };
}

function isRunResult(value: unknown): value is RunResult {
  return typeof value === 'object' && value !== null && typeof (value as RunResult).status === 'string' && Array.isArray((value as RunResult).divergences) && Array.isArray((value as RunResult).steps);
}

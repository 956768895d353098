import type { Page } from 'playwright';
import { messageOf } from '../errors/messageOf.js';

/** What a custom check (and a tool) is given: the live page, this run's parameters and the call's arguments. */
export type CheckContext = {
  page: Page;
  /**
   * This run's bound values, secrets in plain text: the one place they are plain, so a check can
   * act with them. Whatever capture returns is stored with secret values replaced by `{{name}}`.
   */
  params: Readonly<Record<string, string>>;
  /** The tool call's arguments, rendered with this run's values. */
  args: Readonly<Record<string, unknown>>;
};

/**
 * A custom check, the original muscle-memory primitive: `capture` reads what matters on the live
 * page (or anywhere), and is stored when the step is recorded; before (or after) the step is
 * replayed it captures again and `compare` decides whether this is still the same situation.
 *
 * `compare` returns a boolean (true: the same), or a similarity from 0 to 1 that passes when it
 * is at least `threshold` (default 0.9). Captured data must be JSON (it is stored). `capture` may
 * be called more than once while a replay waits for the page to settle, so it should only read.
 */
export type Check<T = unknown> = {
  capture(context: CheckContext): T | Promise<T>;
  compare(current: T, recorded: T): boolean | number | Promise<boolean | number>;
  /** The least similarity that passes when `compare` returns a number. Default 0.9. */
  threshold?: number;
};

export const DEFAULT_SIMILARITY_THRESHOLD = 0.9;

export type CheckOutcome = { ok: true } | { ok: false; reason: string };

/**
 * Captures now and compares with the recorded capture. Whatever goes wrong in the user's code
 * (capture or compare throwing, a similarity that is not a number) is a failed check with the
 * message, never an exception out of the run: a check that cannot say yes says no.
 * `label` names the check in reasons: `custom pre-check of tool "lookupClaim"`.
 */
export async function runCheck<T>(check: Check<T>, context: CheckContext, recorded: T, label: string): Promise<CheckOutcome> {
  let current: T;
  try {
    current = await check.capture(context);
  } catch (error) {
    return { ok: false, reason: `${label} failed: capture threw: ${messageOf(error)}` };
  }
  let verdict: boolean | number;
  try {
    verdict = await check.compare(current, recorded);
  } catch (error) {
    return { ok: false, reason: `${label} failed: compare threw: ${messageOf(error)}` };
  }
  if (typeof verdict === 'boolean') return verdict ? { ok: true } : { ok: false, reason: `${label} failed: compare returned false` };
  if (typeof verdict !== 'number' || Number.isNaN(verdict)) {
    return { ok: false, reason: `${label} failed: compare must return a boolean or a similarity number, got ${describeValue(verdict)}` };
  }
  const threshold = check.threshold ?? DEFAULT_SIMILARITY_THRESHOLD;
  if (verdict >= threshold) return { ok: true };
  return { ok: false, reason: `${label} failed: similarity ${round(verdict)} below ${threshold}` };
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

function describeValue(value: unknown): string {
  if (value === undefined) return 'undefined';
  return `${typeof value} ${JSON.stringify(value) ?? String(value)}`;
}

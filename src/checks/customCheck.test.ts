import type { Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SIMILARITY_THRESHOLD, runCheck, type Check, type CheckContext } from './customCheck.js';

const context: CheckContext = { page: {} as Page, params: { account: 'A-1' }, args: { id: 'C-1' } };
const label = 'custom pre-check of tool "lookupClaim"';

function check<T>(captured: T, compare: Check<T>['compare'], threshold?: number): Check<T> {
  return { capture: () => captured, compare, ...(threshold === undefined ? {} : { threshold }) };
}

describe('runCheck', () => {
  it('passes on true and fails on false, naming the check', async () => {
    expect(await runCheck(check('checking', (current, recorded) => current === recorded), context, 'checking', label)).toEqual({ ok: true });
    expect(await runCheck(check('savings', (current, recorded) => current === recorded), context, 'checking', label)).toEqual({
      ok: false,
      reason: 'custom pre-check of tool "lookupClaim" failed: compare returned false',
    });
  });

  it('compares a similarity with the threshold (default 0.9, at least passes)', async () => {
    expect(DEFAULT_SIMILARITY_THRESHOLD).toBe(0.9);
    expect(await runCheck(check(1, () => 0.95), context, 1, label)).toEqual({ ok: true });
    expect(await runCheck(check(1, () => 0.9), context, 1, label)).toEqual({ ok: true });
    expect(await runCheck(check(1, () => 0.42), context, 1, label)).toEqual({ ok: false, reason: 'custom pre-check of tool "lookupClaim" failed: similarity 0.42 below 0.9' });
    expect(await runCheck(check(1, () => 0.42, 0.4), context, 1, label)).toEqual({ ok: true });
    expect(await runCheck(check(1, () => 0.95, 0.99), context, 1, label)).toMatchObject({ ok: false, reason: expect.stringContaining('similarity 0.95 below 0.99') });
  });

  it('gives capture the context and compare the current and recorded data', async () => {
    const seen: unknown[] = [];
    const spy: Check<string> = {
      capture: async (ctx) => `${ctx.params.account}/${String(ctx.args.id)}`,
      compare: (current, recorded) => {
        seen.push(current, recorded);
        return true;
      },
    };
    await runCheck(spy, context, 'recorded', label);
    expect(seen).toEqual(['A-1/C-1', 'recorded']);
  });

  it('turns a capture or compare that throws, or a verdict of another kind, into a failed check', async () => {
    const throwing: Check<number> = { capture: () => Promise.reject(new Error('no such element')), compare: () => true };
    expect(await runCheck(throwing, context, 1, label)).toEqual({ ok: false, reason: 'custom pre-check of tool "lookupClaim" failed: capture threw: no such element' });
    expect(
      await runCheck(
        check(1, () => {
          throw new Error('bad shape');
        }),
        context,
        1,
        label,
      ),
    ).toEqual({ ok: false, reason: 'custom pre-check of tool "lookupClaim" failed: compare threw: bad shape' });
    expect(await runCheck(check(1, () => Number.NaN), context, 1, label)).toMatchObject({ ok: false, reason: expect.stringContaining('must return a boolean or a similarity number') });
    expect(await runCheck(check(1, () => 'yes' as unknown as boolean), context, 1, label)).toMatchObject({ ok: false, reason: expect.stringContaining('got string "yes"') });
  });
});

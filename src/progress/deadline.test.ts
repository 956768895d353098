import { describe, expect, it } from 'vitest';
import { deadlineIn, raceDeadline, withinDeadline } from './deadline.js';

const after = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

describe('raceDeadline', () => {
  it("settles as the work does when it comes first, and as the cutoff says when the deadline does", async () => {
    expect(await raceDeadline(deadlineIn(1_000), after(5, 'work'), () => 'late')).toBe('work');
    expect(await raceDeadline(deadlineIn(5), after(1_000, 'work'), (why) => `cut: ${why}`)).toBe('cut: timeout');
    await expect(raceDeadline(deadlineIn(1_000), Promise.reject(new Error('broke')), () => 'late')).rejects.toThrow('broke');
  });

  it('ends at an abort, or at once when the signal has already aborted', async () => {
    const controller = new AbortController();
    const raced = raceDeadline(deadlineIn(10_000, controller.signal), after(10_000, 'work'), (why) => why);
    controller.abort();
    expect(await raced).toBe('aborted');
    expect(await raceDeadline(deadlineIn(10_000, AbortSignal.abort()), after(10_000, 'work'), (why) => why)).toBe('aborted');
  });

  it('rejects with what the cutoff throws, and ignores the work failing after it lost', async () => {
    const unhandled: unknown[] = [];
    const note = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', note);
    try {
      const loser = new Promise((_resolve, reject) => setTimeout(() => reject(new Error('too late')), 20));
      await expect(raceDeadline(deadlineIn(1), loser, () => { throw new Error('cut'); })).rejects.toThrow('cut');
      await after(40, undefined);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', note);
    }
  });

  it('says what ran out in withinDeadline', async () => {
    await expect(withinDeadline(deadlineIn(1), after(1_000, 'x'), 'the agent')).rejects.toThrow("the agent: still running when the run's deadline passed");
    await expect(withinDeadline(deadlineIn(1_000, AbortSignal.abort()), after(1_000, 'x'), 'the agent')).rejects.toThrow('the agent: aborted');
  });
});

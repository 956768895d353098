import { describe, expect, it } from 'vitest';
import { RunTimeAccount, accounted, runTimeSchema } from './runTime.js';

describe('RunTimeAccount', () => {
  it('splits the looks for cached steps into checks and waits, and gives the rest as other', () => {
    const account = new RunTimeAccount();
    account.looked(120, 80);
    account.looked(30, 0);
    account.add('replayed', 200.4);
    account.add('agent', 500);
    expect(account.of(1000)).toEqual({ replayed: 200, checks: 70, waits: 80, agent: 500, other: 150 });
  });

  it('never counts more waiting than the look took, nor a negative rest', () => {
    const account = new RunTimeAccount();
    account.looked(10, 25);
    expect(account.of(5)).toEqual({ replayed: 0, checks: 0, waits: 10, agent: 0, other: 0 });
  });

  it('accounts work that throws, too', async () => {
    const account = new RunTimeAccount();
    await expect(accounted(account, 'agent', async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      throw new Error('the agent threw');
    })).rejects.toThrow('the agent threw');
    expect(account.of(1000).agent).toBeGreaterThanOrEqual(15);
  });
});

describe('runTimeSchema', () => {
  it("reads what an account gives, and refuses a value that is not a run's time (as a stored one may be)", () => {
    const account = new RunTimeAccount();
    account.looked(40, 10);
    expect(runTimeSchema.parse(account.of(100))).toEqual({ replayed: 0, checks: 30, waits: 10, agent: 0, other: 60 });
    for (const damaged of [null, 'slow', { replayed: 1, checks: 2, waits: 3, agent: 4 }, { replayed: -1, checks: 0, waits: 0, agent: 0, other: 0 }, { replayed: '1', checks: 0, waits: 0, agent: 0, other: 0 }]) {
      expect(runTimeSchema.safeParse(damaged).success, JSON.stringify(damaged)).toBe(false);
    }
  });
});

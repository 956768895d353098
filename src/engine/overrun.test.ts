import { describe, expect, it } from 'vitest';
import { withinOverrun } from './overrun.js';
import { RunContext } from './runContext.js';

describe('withinOverrun', () => {
  it('ends a run whose step never settles, closing its page, with a timeout naming the deadline', async () => {
    let closed = 0;
    const page = { close: async () => void closed++ };
    const context = new RunContext('rote.run("t")', 50);
    const never = new Promise<string>(() => undefined);
    await expect(withinOverrun(never, page, context, 20)).rejects.toThrow('rote.run("t"): timeout of 50ms exceeded and the step under way did not end (the page stopped answering)');
    expect(closed).toBe(1);
  });

  it('passes a run that ends in time through, untouched', async () => {
    const page = { close: async () => undefined };
    await expect(withinOverrun(Promise.resolve('replayed'), page, new RunContext('w', 1_000), 20)).resolves.toBe('replayed');
    await expect(withinOverrun(Promise.reject(new Error('boom')), page, new RunContext('w', 1_000), 20)).rejects.toThrow('boom');
  });
});

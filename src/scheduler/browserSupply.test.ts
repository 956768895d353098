import type { Browser } from 'playwright';
import { describe, expect, it } from 'vitest';
import { browserSupply } from './browserSupply.js';

/** A stand-in browser: connected until it "crashes", counting its closes. */
function fakeBrowser() {
  const browser = { connected: true, closed: 0, isConnected: () => browser.connected, close: async () => void browser.closed++ };
  return browser;
}

describe('browserSupply', () => {
  it('relaunches a dead browser once however many callers find it dead together, and closes every browser it launched', async () => {
    const launched: ReturnType<typeof fakeBrowser>[] = [];
    const supply = browserSupply(async () => {
      const browser = fakeBrowser();
      launched.push(browser);
      return browser as unknown as Browser;
    });
    const first = await supply.get();
    expect(await supply.get()).toBe(first);
    launched[0]!.connected = false;
    const again = await Promise.all([supply.get(), supply.get(), supply.get(), supply.get()]);
    expect(launched).toHaveLength(2);
    expect(new Set(again).size).toBe(1);
    await supply.close();
    expect(launched.map((browser) => browser.closed)).toEqual([1, 1]);
  });

  it('launches again after a launch that failed', async () => {
    let attempts = 0;
    const supply = browserSupply(async () => {
      attempts++;
      if (attempts === 1) throw new Error('no chromium');
      return fakeBrowser() as unknown as Browser;
    });
    await expect(supply.get()).rejects.toThrow('no chromium');
    await expect(supply.get()).resolves.toBeTruthy();
    expect(attempts).toBe(2);
    await supply.close();
  });
});

describe('browserSupply.discard', () => {
  it('launches another for the next caller when a browser stopped answering, though it still says it is connected', async () => {
    const launched: ReturnType<typeof fakeBrowser>[] = [];
    const supply = browserSupply(async () => {
      const browser = fakeBrowser();
      launched.push(browser);
      return browser as unknown as Browser;
    });
    const hung = await supply.get();
    supply.discard(hung);
    expect(launched[0]!.closed).toBe(1);
    const next = await supply.get();
    expect(next).not.toBe(hung);
    expect(launched).toHaveLength(2);
    await supply.close();
  });
});

import { EventEmitter } from 'node:events';
import type { Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { BoundParams } from '../params/boundParams.js';
import { deadlineIn } from '../progress/deadline.js';
import { preCheck, type CheckEnvironment } from './preCheck.js';
import { RunWindows } from './runWindows.js';
import type { TrajectoryNode } from '../trajectory/trajectoryNode.js';

/** A page as RunWindows sees one: it opens popups and closes. */
class FakePage extends EventEmitter {
  closed = false;
  isClosed(): boolean {
    return this.closed;
  }
  open(): FakePage {
    const popup = new FakePage();
    this.emit('popup', popup);
    return popup;
  }
}
const asPage = (page: FakePage) => page as unknown as Page;

describe('RunWindows', () => {
  it('acts in the newest window still open and goes back to the opener when it closes', () => {
    const main = new FakePage();
    const windows = new RunWindows(asPage(main));
    expect(windows.active).toBe(asPage(main));
    const add = main.open();
    const lookup = add.open();
    expect(windows.active).toBe(asPage(lookup));
    expect([windows.indexOf(asPage(main)), windows.indexOf(asPage(add)), windows.indexOf(asPage(lookup))]).toEqual([0, 1, 2]);
    expect(windows.observed(asPage(lookup))).toEqual({ index: 2, open: 2 });
    lookup.closed = true;
    expect(windows.active).toBe(asPage(add));
    add.closed = true;
    expect(windows.active).toBe(asPage(main));
    expect(windows.observed(asPage(main))).toBeUndefined();
    windows.dispose();
    main.open();
    expect(windows.active).toBe(asPage(main));
  });
});

describe('the window check before a cached step', () => {
  const node = (window: number | undefined): TrajectoryNode => ({
    id: 'n1', taskId: 't', parentId: null, resumeAtId: null, action: { type: 'click', x: 10, y: 10, button: 'left' }, intent: null,
    url: 'http://app.test/companies/add/', fingerprint: null, box: null, cropHash: null, cropRect: null, masks: [], state: window ? { window } : {}, endsRun: false, lastSuccessAt: null,
  });
  // The page is never touched: the window is compared before anything is read from it.
  const env = (window: number): CheckEnvironment => ({ page: undefined as unknown as Page, params: BoundParams.none, blob: async () => undefined, usedSoFar: new Set(), valueHashes: {}, deadline: deadlineIn(1000), window });

  it('does not do a step recorded in a window the page opened in the page itself, nor the other way round', async () => {
    const inPage = await preCheck(env(0), node(1), deadlineIn(100));
    expect(inPage).toMatchObject({ ok: false, reason: 'the step was recorded in window 1 that the page opened, and the run is in the page itself' });
    const inWindow = await preCheck(env(1), node(undefined), deadlineIn(100));
    expect(inWindow).toMatchObject({ ok: false, reason: 'the step was recorded in the page itself, and the run is in window 1 that the page opened' });
    const otherWindow = await preCheck(env(2), node(1), deadlineIn(100));
    expect(otherWindow.ok).toBe(false);
  });
});

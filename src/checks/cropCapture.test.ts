import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright';
import { captureCrop } from './cropCapture.js';
import { deadlineIn } from '../progress/deadline.js';

type Layout = { pageX: number; pageY: number };

/**
 * A page whose DevTools session answers the layout metrics from `layouts` in turn and each
 * capture with its clip, logging every message with the time it was answered.
 */
function fakePage(layouts: Array<Layout | Error>, shotMs = 20) {
  const log: string[] = [];
  let shotsInFlight = 0;
  let overlapped = false;
  const cdp = {
    send: async (method: string, params?: { clip?: { x: number; y: number } }) => {
      if (method === 'Page.getLayoutMetrics') {
        const next = layouts.shift() ?? new Error('no more layouts');
        log.push(`metrics ${next instanceof Error ? 'error' : `${next.pageX},${next.pageY}`}`);
        if (next instanceof Error) throw next;
        return { cssVisualViewport: next, visualViewport: { ...next, scale: 1 }, contentSize: { width: 1000 }, cssContentSize: { width: 1000 } };
      }
      shotsInFlight++;
      if (shotsInFlight > 1) overlapped = true;
      await new Promise((resolve) => setTimeout(resolve, shotMs));
      shotsInFlight--;
      log.push(`shot ${params!.clip!.x},${params!.clip!.y}`);
      return { data: Buffer.from(`shot at ${params!.clip!.x},${params!.clip!.y}`).toString('base64') };
    },
  };
  const page = { context: () => ({ newCDPSession: async () => cdp }), isClosed: () => false, waitForLoadState: async () => undefined } as unknown as Page;
  return { page, log, overlapped: () => overlapped };
}

const CLIP = { x: 10, y: 20, width: 30, height: 40 };

describe('a crop captured at the last known scroll', () => {
  it('is kept when the metrics before and after the shot both show that scroll', async () => {
    const { page, log } = fakePage([{ pageX: 0, pageY: 100 }, { pageX: 0, pageY: 100 }, { pageX: 0, pageY: 100 }]);
    await captureCrop(page, CLIP, deadlineIn(5000));
    log.length = 0;
    expect((await captureCrop(page, CLIP, deadlineIn(5000))).toString()).toBe('shot at 10,120');
    expect(log.filter((line) => line.startsWith('shot'))).toEqual(['shot 10,120']);
  });

  it('is taken again where the metrics read after the shot show another scroll (a smooth scroll begun meanwhile)', async () => {
    const { page, log } = fakePage([{ pageX: 0, pageY: 100 }, { pageX: 0, pageY: 100 }, { pageX: 0, pageY: 160 }]);
    await captureCrop(page, CLIP, deadlineIn(5000));
    log.length = 0;
    expect((await captureCrop(page, CLIP, deadlineIn(5000))).toString()).toBe('shot at 10,180');
    expect(log).toEqual(['metrics 0,100', 'shot 10,120', 'metrics 0,160', 'shot 10,180']);
  });

  it('is taken again where the metrics read beside the shot show another scroll', async () => {
    const { page, log } = fakePage([{ pageX: 0, pageY: 100 }, { pageX: 0, pageY: 0 }]);
    await captureCrop(page, CLIP, deadlineIn(5000));
    log.length = 0;
    expect((await captureCrop(page, CLIP, deadlineIn(5000))).toString()).toBe('shot at 10,20');
    expect(log).toEqual(['metrics 0,0', 'shot 10,120', 'shot 10,20']);
  });

  it('never overlaps a retry with a shot still on its way when the metrics fail', async () => {
    const { page, log, overlapped } = fakePage([{ pageX: 0, pageY: 100 }, new Error('Target closed'), { pageX: 0, pageY: 100 }, { pageX: 0, pageY: 100 }], 200);
    await captureCrop(page, CLIP, deadlineIn(5000));
    log.length = 0;
    expect((await captureCrop(page, CLIP, deadlineIn(5000))).toString()).toBe('shot at 10,120');
    expect(overlapped()).toBe(false);
    expect(log.slice(0, 2)).toEqual(['metrics error', 'shot 10,120']);
  });
});

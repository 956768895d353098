import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright';
import { deadlineIn } from '../progress/deadline.js';
import type { TrajectoryNode } from '../trajectory/trajectoryNode.js';
import type { CheckEnvironment } from './checkTypes.js';
import { earlyCrop, offsetFrom } from './visualCheck.js';

/** A 1280x720 page whose DevTools session answers a still layout, and logs where each crop was captured. */
function fakeEnv(offset?: { dx: number; dy: number }) {
  const shots: string[] = [];
  const cdp = {
    send: async (method: string, params?: { clip?: { x: number; y: number } }) => {
      if (method === 'Page.getLayoutMetrics') {
        const view = { pageX: 0, pageY: 0 };
        return { cssVisualViewport: view, visualViewport: { ...view, scale: 1 }, contentSize: { width: 1280 }, cssContentSize: { width: 1280 } };
      }
      shots.push(`${params!.clip!.x},${params!.clip!.y}`);
      return { data: Buffer.from('shot').toString('base64') };
    },
  };
  const page = { context: () => ({ newCDPSession: async () => cdp }), isClosed: () => false, waitForLoadState: async () => undefined, viewportSize: () => ({ width: 1280, height: 720 }) } as unknown as Page;
  const env = { page, deadline: deadlineIn(5_000), ...(offset ? { offset } : {}) } as unknown as CheckEnvironment;
  return { env, shots };
}

/** A step recorded with its target at (400, y) and a crop 20 px around it. */
function nodeAt(y: number): TrajectoryNode {
  return { cropHash: 'h', cropRect: { x: -20, y: -20, width: 200, height: 60 }, box: { x: 400, y, width: 160, height: 20 } } as unknown as TrajectoryNode;
}

describe('where the crop beside the read is first taken', () => {
  it('is the recorded place when no target has been found moved', async () => {
    const { env, shots } = fakeEnv();
    const early = earlyCrop(env, nodeAt(300))!;
    expect(early.clip).toEqual({ x: 380, y: 280, width: 200, height: 60 });
    await early.shot;
    expect(shots).toEqual(['380,280']);
  });

  it('moves as far as the last target found had moved from its recorded box', async () => {
    const { env, shots } = fakeEnv(offsetFrom(nodeAt(300), { x: 400, y: 304, width: 160, height: 20 }));
    const early = earlyCrop(env, nodeAt(500))!;
    expect(early.clip).toEqual({ x: 380, y: 484, width: 200, height: 60 });
    await early.shot;
    expect(shots).toEqual(['380,484']);
  });

  it('stays at the recorded place where the move would take the clip out of the viewport', () => {
    const { env } = fakeEnv({ dx: 0, dy: 200 });
    expect(earlyCrop(env, nodeAt(600))!.clip).toEqual({ x: 380, y: 580, width: 200, height: 60 });
  });

  it('is not taken where neither place is inside the viewport', () => {
    const { env } = fakeEnv({ dx: 0, dy: 200 });
    expect(earlyCrop(env, nodeAt(900))).toBeUndefined();
  });
});

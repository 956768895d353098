import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { Page } from 'playwright';
import { deadlineIn } from '../progress/deadline.js';
import type { TrajectoryNode } from '../trajectory/trajectoryNode.js';
import type { CheckEnvironment } from './checkTypes.js';
import { earlyCrop, visualCheck } from './visualCheck.js';

/** A crop of the recorded size (200 x 60) in one colour. */
function cropOf(colour: { r: number; g: number; b: number }): Promise<Buffer> {
  return sharp({ create: { width: 200, height: 60, channels: 3, background: colour } }).png().toBuffer();
}
const GREY = { r: 128, g: 128, b: 128 };
const RED = { r: 220, g: 0, b: 0 };

/**
 * A 1280x720 page whose DevTools session answers a still layout, and logs where each crop was
 * captured; a capture shows `look` (a grey crop unless told).
 */
function fakeEnv(offset?: { dx: number; dy: number }, look: () => Promise<Buffer> = () => cropOf(GREY)) {
  const shots: string[] = [];
  const cdp = {
    send: async (method: string, params?: { clip?: { x: number; y: number } }) => {
      if (method === 'Page.getLayoutMetrics') {
        const view = { pageX: 0, pageY: 0 };
        return { cssVisualViewport: view, visualViewport: { ...view, scale: 1 }, contentSize: { width: 1280 }, cssContentSize: { width: 1280 } };
      }
      shots.push(`${params!.clip!.x},${params!.clip!.y}`);
      return { data: (await look()).toString('base64') };
    },
  };
  const page = {
    context: () => ({ newCDPSession: async () => cdp }),
    isClosed: () => false,
    waitForLoadState: async () => undefined,
    viewportSize: () => ({ width: 1280, height: 720 }),
    // No password field on the page (the secret regions' lookup).
    evaluate: async () => [],
  } as unknown as Page;
  const params = { size: 0, secretValues: () => [], shownForms: () => [] };
  const env = { page, params, deadline: deadlineIn(5_000), ...(offset ? { offset } : {}) } as unknown as CheckEnvironment;
  return { env, shots };
}

/** A step recorded with its target at (400, y) and a crop 20 px around it. */
function nodeAt(y: number): TrajectoryNode {
  return { cropHash: 'h', cropRect: { x: -20, y: -20, width: 200, height: 60 }, box: { x: 400, y, width: 160, height: 20 }, masks: [] } as unknown as TrajectoryNode;
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
    // The step before's target stood 4 px below its recorded box (CheckPass.offset).
    const { env, shots } = fakeEnv({ dx: 0, dy: 4 });
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

describe('an early crop is compared only where the read found the target', () => {
  it('is compared, with no capture after the read, when the target stands where it was taken', async () => {
    const { env, shots } = fakeEnv({ dx: 0, dy: 4 });
    const early = { clip: { x: 380, y: 284, width: 200, height: 60 }, shot: cropOf(GREY) };
    const checked = await visualCheck(env, nodeAt(300), { x: 400, y: 304, width: 160, height: 20 }, await cropOf(GREY), deadlineIn(0), early);
    expect('reason' in checked).toBe(false);
    expect(shots).toEqual([]);
  });

  it('is not compared when the target stands elsewhere: the crop is captured where it stands, and that one counts', async () => {
    // The early frame shows the recorded look at the guessed place; where the target really is, it looks otherwise.
    const { env, shots } = fakeEnv({ dx: 0, dy: 4 }, () => cropOf(RED));
    const early = { clip: { x: 380, y: 284, width: 200, height: 60 }, shot: cropOf(GREY) };
    const checked = await visualCheck(env, nodeAt(300), { x: 400, y: 310, width: 160, height: 20 }, await cropOf(GREY), deadlineIn(0), early);
    expect('reason' in checked).toBe(true);
    expect(shots.length).toBeGreaterThan(0);
    expect(new Set(shots)).toEqual(new Set(['380,290']));
  });
});

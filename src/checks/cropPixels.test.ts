import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { cutPixels, decodeAhead, pixelsOf } from './cropPixels.js';

/** A 40x20 RGB picture whose every pixel differs from its neighbours. */
async function picture(): Promise<Buffer> {
  const data = Buffer.alloc(40 * 20 * 3);
  for (let i = 0; i < data.length; i++) data[i] = (i * 7) % 251;
  return sharp(data, { raw: { width: 40, height: 20, channels: 3 } }).png().toBuffer();
}

async function decoded(png: Buffer) {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

describe('crop pixels', () => {
  it('keeps a cut crop\'s pixels as a decode of its PNG gives them', async () => {
    const cut = (await cutPixels(await picture(), { left: 5, top: 3, width: 20, height: 10 }))!;
    const kept = await pixelsOf(cut);
    expect(kept.width).toBe(20);
    expect(kept.height).toBe(10);
    expect(kept.data.equals((await decoded(cut)).data)).toBe(true);
  });

  it('gives copies: a mask painted on one is not on the next', async () => {
    const png = await picture();
    decodeAhead(png);
    const first = await pixelsOf(png);
    first.data.fill(0);
    const second = await pixelsOf(png);
    expect(second.data.equals((await decoded(png)).data)).toBe(true);
    const cut = (await cutPixels(png, { left: 0, top: 0, width: 10, height: 10 }))!;
    (await pixelsOf(cut)).data.fill(0);
    expect((await pixelsOf(cut)).data.equals((await decoded(cut)).data)).toBe(true);
  });

  it('has no cut for a region the capture does not hold, and no pixels for a PNG that is not one', async () => {
    expect(await cutPixels(await picture(), { left: 30, top: 0, width: 20, height: 10 })).toBeUndefined();
    await expect(pixelsOf(Buffer.from('not a png'))).rejects.toThrow();
  });
});

import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { decodeAhead, pixelsOf } from './cropPixels.js';

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
  it('gives a PNG\'s pixels as a decode of it gives them, RGBA', async () => {
    const png = await picture();
    const kept = await pixelsOf(png);
    expect([kept.width, kept.height]).toEqual([40, 20]);
    expect(kept.data.equals((await decoded(png)).data)).toBe(true);
  });

  it('gives copies: a mask painted on one is not on the next', async () => {
    const png = await picture();
    decodeAhead(png);
    const first = await pixelsOf(png);
    first.data.fill(0);
    const second = await pixelsOf(png);
    expect(second.data.equals((await decoded(png)).data)).toBe(true);
  });

  it('has no pixels for a PNG that is not one', async () => {
    await expect(pixelsOf(Buffer.from('not a png'))).rejects.toThrow();
  });
});

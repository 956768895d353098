import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { cropThumbnail, KEPT_PNG_BYTES } from './thumbnail.js';

const png = (width: number, height: number, raw: Buffer) => sharp(raw, { raw: { width, height, channels: 3 } }).png().toBuffer();

describe('cropThumbnail', () => {
  it('keeps a small PNG as it is: a form field is mostly flat colour', async () => {
    const field = await png(260, 36, Buffer.alloc(260 * 36 * 3, 0xff));
    expect(field.length).toBeLessThanOrEqual(KEPT_PNG_BYTES);
    expect(await cropThumbnail(field)).toBe(field);
  });

  it('encodes a large one (a photo, noise) as lossy WebP, far smaller', async () => {
    const noise = await png(200, 100, randomBytes(200 * 100 * 3));
    expect(noise.length).toBeGreaterThan(KEPT_PNG_BYTES);
    const thumb = await cropThumbnail(noise);
    expect(thumb.subarray(8, 12).toString('latin1')).toBe('WEBP');
    expect(thumb.length).toBeLessThan(noise.length);
  });
});

import { createHash } from 'node:crypto';
import sharp from 'sharp';

/** A crop's pixels, RGBA, row by row. */
export type Pixels = { data: Buffer; width: number; height: number };

/**
 * Every check compares two PNGs by their pixels: the recorded crop, decoded again on every replay
 * of its step, and the live one, just captured. The recorded crop's decode need not wait on a
 * step's way to its action: it is started while the capture is on its way (`decodeAhead`), and
 * crops' pixels are kept by their content, a few megabytes' worth, the most recently compared
 * first. Callers get a copy: comparing paints masks on it.
 */
const decoded = new Map<string, { pixels: Promise<Pixels>; bytes: number }>();
const DECODED_LIMIT_BYTES = 32 * 1024 * 1024;
let decodedBytes = 0;

/** The pixels of a PNG (a copy: the caller may paint on it). */
export async function pixelsOf(png: Buffer): Promise<Pixels> {
  return copy(await decodedPixels(png));
}

/**
 * Starts decoding a recorded crop while its step's capture is on its way, so that the comparison
 * finds its pixels ready.
 */
export function decodeAhead(png: Buffer): void {
  decodedPixels(png).catch(() => undefined);
}

function decodedPixels(png: Buffer): Promise<Pixels> {
  const key = createHash('sha1').update(png).digest('hex');
  const known = decoded.get(key);
  if (known) {
    // Most recently used last: the oldest is let go first.
    decoded.delete(key);
    decoded.set(key, known);
    return known.pixels;
  }
  const pixels = sharp(png)
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
    .then(({ data, info }) => ({ data, width: info.width, height: info.height }));
  const entry = { pixels, bytes: 0 };
  decoded.set(key, entry);
  pixels.then(
    (done) => {
      // One let go while it was decoding is not counted.
      if (decoded.get(key) !== entry) return;
      entry.bytes = done.data.length;
      decodedBytes += entry.bytes;
      for (const [oldest, old] of decoded) {
        if (decodedBytes <= DECODED_LIMIT_BYTES) break;
        decoded.delete(oldest);
        decodedBytes -= old.bytes;
      }
    },
    // A PNG that cannot be decoded is not kept: the next comparison tries again, and says so.
    () => void (decoded.get(key) === entry && decoded.delete(key)),
  );
  return pixels;
}

function copy(pixels: Pixels): Pixels {
  return { data: Buffer.from(pixels.data), width: pixels.width, height: pixels.height };
}

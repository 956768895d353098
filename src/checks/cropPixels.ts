import { createHash } from 'node:crypto';
import sharp from 'sharp';

/** A crop's pixels, RGBA, row by row. */
export type Pixels = { data: Buffer; width: number; height: number };

/**
 * Every check compares two PNGs by their pixels: the recorded crop, decoded again on every replay
 * of its step, and the live one, which rote has just cut from the viewport's pixels and encoded.
 * Neither decode need wait on a step's way to its action: the live crop's pixels are kept as they
 * were cut (`cutPixels`), and recorded crops' pixels are kept by their content, a few megabytes'
 * worth, the most recently compared first. Callers get a copy: comparing paints masks on it.
 */
const livePixels = new WeakMap<Buffer, Pixels>();
const decoded = new Map<string, { pixels: Promise<Pixels>; bytes: number }>();
const DECODED_LIMIT_BYTES = 32 * 1024 * 1024;
let decodedBytes = 0;

/** The pixels of a PNG (a copy: the caller may paint on it). */
export async function pixelsOf(png: Buffer): Promise<Pixels> {
  const live = livePixels.get(png);
  if (live) return copy(live);
  return copy(await decodedPixels(png));
}

/**
 * Starts decoding a recorded crop while its step's capture is on its way, so that the comparison
 * finds its pixels ready.
 */
export function decodeAhead(png: Buffer): void {
  if (!livePixels.has(png)) decodedPixels(png).catch(() => undefined);
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

/**
 * A region of a whole-viewport capture, cut and PNG-encoded as the report keeps it, with its
 * pixels kept beside the PNG for the comparison that follows. Undefined when the capture does not
 * hold the region.
 */
export async function cutPixels(whole: Buffer, region: { left: number; top: number; width: number; height: number }): Promise<Buffer | undefined> {
  try {
    const { data, info } = await sharp(whole).extract(region).raw().toBuffer({ resolveWithObject: true });
    const png = await sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } }).png().toBuffer();
    livePixels.set(png, { data: rgba(data, info.channels), width: info.width, height: info.height });
    return png;
  } catch {
    return undefined;
  }
}

function copy(pixels: Pixels): Pixels {
  return { data: Buffer.from(pixels.data), width: pixels.width, height: pixels.height };
}

/** RGB or grey pixels as RGBA, as sharp's `ensureAlpha` gives them. */
function rgba(data: Buffer, channels: number): Buffer {
  if (channels === 4) return data;
  const pixels = data.length / channels;
  const out = Buffer.alloc(pixels * 4);
  for (let i = 0; i < pixels; i++) {
    const from = i * channels;
    const [r, g, b] = channels >= 3 ? [data[from]!, data[from + 1]!, data[from + 2]!] : [data[from]!, data[from]!, data[from]!];
    out[i * 4] = r;
    out[i * 4 + 1] = g;
    out[i * 4 + 2] = b;
    out[i * 4 + 3] = channels === 2 ? data[from + 1]! : 255;
  }
  return out;
}

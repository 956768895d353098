import pixelmatch from 'pixelmatch';
import type { Page } from 'playwright';
import sharp from 'sharp';
import { pause, remainingMs, type Deadline } from '../progress/deadline.js';
import { oneCaptureAtATime } from './captureGate.js';
import { pixelsOf, type Pixels } from './cropPixels.js';
import { intersect, roundBox, type Box, type Point } from './geometry.js';

/** Margin kept around a target, so a crop shows its edges and what sits right against it. */
export const CROP_PADDING = 6;
const MAX_CROP = { width: 480, height: 240 };
/**
 * Share of pixels that may differ: sub-pixel text placement (a target that moved by half a pixel)
 * stays under it; an overlay, a disabled look or another theme is far above it.
 */
const MAX_DIFF_RATIO = 0.02;
const MAX_DIFF_PIXELS_ALWAYS_OK = 6;

export type VisualMismatch = { reason: string; diffRatio: number; actual: Buffer; diff?: Buffer };

/**
 * The crop that stands for a target: its box plus a margin, no larger than MAX_CROP (centred on
 * the point acted on, for large targets), within the viewport.
 */
export function cropRectFor(box: Box, point: Point | undefined, viewport: { width: number; height: number }): Box | undefined {
  let rect: Box = { x: box.x - CROP_PADDING, y: box.y - CROP_PADDING, width: box.width + 2 * CROP_PADDING, height: box.height + 2 * CROP_PADDING };
  const centre = point ?? { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  if (rect.width > MAX_CROP.width) rect = { ...rect, x: centre.x - MAX_CROP.width / 2, width: MAX_CROP.width };
  if (rect.height > MAX_CROP.height) rect = { ...rect, y: centre.y - MAX_CROP.height / 2, height: MAX_CROP.height };
  const visible = intersect(rect, { x: 0, y: 0, width: viewport.width, height: viewport.height });
  return visible ? roundBox(visible) : undefined;
}

/** A capture that takes longer than this is stuck (a page mid-navigation), not slow. */
export const CROP_CAPTURE_LIMIT_MS = 5000;
const VIEWPORT_CAPTURE_LIMIT_MS = 10_000;

/** Playwright reads a timeout of 0 as "no timeout": a deadline already passed still gets 1 ms. */
export function captureTimeout(deadline: Deadline, limitMs: number): number {
  return Math.max(1, remainingMs(deadline, limitMs));
}

/** A clip of the viewport at CSS scale; each attempt is bounded by the crop's own limit and the deadline. */
export async function screenshotCrop(page: Page, clip: Box, deadline: Deadline): Promise<Buffer> {
  return captureSettled(page, deadline, () =>
    oneCaptureAtATime(page, deadline, 'capturing a part of the page', () => page.screenshot({ clip, caret: 'hide', scale: 'css', animations: 'allow', timeout: captureTimeout(deadline, CROP_CAPTURE_LIMIT_MS) })),
  );
}

const CONTROL_BORDER = 3;

/** The inside of a control's box, relative to a crop: what a text field or select shows is data, not the control. */
export function insideOf(box: Box, crop: Box): Box {
  const x = Math.round(box.x - crop.x) + CONTROL_BORDER;
  const y = Math.round(box.y - crop.y) + CONTROL_BORDER;
  return { x, y, width: Math.max(0, Math.round(box.width) - 2 * CONTROL_BORDER), height: Math.max(0, Math.round(box.height) - 2 * CONTROL_BORDER) };
}

/**
 * Whether two elements of one screenshot look alike as a replay's visual check compares a target
 * (its own box, a value-showing control's inside masked): if they do, the check cannot tell one
 * from the other. Sizes that differ by more than a pixel never look alike; within a pixel (a box
 * at a half pixel rounds either way) both are compared at the smaller size.
 */
export async function lookAlike(screenshot: Buffer, a: Box, b: Box, maskInside: boolean): Promise<boolean> {
  if (Math.abs(a.width - b.width) > 1 || Math.abs(a.height - b.height) > 1) return false;
  const meta = await sharp(screenshot).metadata();
  const bounds = { x: 0, y: 0, width: meta.width ?? 0, height: meta.height ?? 0 };
  const size = { width: Math.floor(Math.min(a.width, b.width)), height: Math.floor(Math.min(a.height, b.height)) };
  const rectOf = (box: Box) => {
    const inside = intersect({ x: Math.round(box.x), y: Math.round(box.y), ...size }, bounds);
    return inside ? roundBox(inside) : undefined;
  };
  const [rectA, rectB] = [rectOf(a), rectOf(b)];
  if (!rectA || !rectB || rectA.width !== rectB.width || rectA.height !== rectB.height) return false;
  const crop = (rect: Box) => sharp(screenshot).extract({ left: rect.x, top: rect.y, width: rect.width, height: rect.height }).png().toBuffer();
  const [cropA, cropB] = await Promise.all([crop(rectA), crop(rectB)]);
  return (await compareCrops(cropA, cropB, maskInside ? [insideOf(a, rectA)] : [])) === null;
}

type Raw = Pixels;

const decode = pixelsOf;

function paintMasks(image: Raw, masks: readonly Box[]): void {
  for (const mask of masks) {
    const area = intersect(mask, { x: 0, y: 0, width: image.width, height: image.height });
    if (!area) continue;
    const box = roundBox(area);
    for (let y = box.y; y < Math.min(image.height, box.y + box.height); y++) {
      image.data.fill(0, (y * image.width + box.x) * 4, (y * image.width + Math.min(image.width, box.x + box.width)) * 4);
    }
  }
}

/**
 * Compares a recorded crop with a live one. Masked regions (crop-relative boxes that render
 * parameter values) are blanked in both. Returns null for a match, else the mismatch with a
 * diff image, as Playwright's comparators do.
 */
export async function compareCrops(recorded: Buffer, actual: Buffer, masks: readonly Box[]): Promise<VisualMismatch | null> {
  if (recorded.equals(actual)) return null;
  const [expected, current] = await Promise.all([decode(recorded), decode(actual)]);
  if (expected.width !== current.width || expected.height !== current.height) {
    return { reason: `the crop is ${current.width}x${current.height}, recorded ${expected.width}x${expected.height}`, diffRatio: 1, actual };
  }
  paintMasks(expected, masks);
  paintMasks(current, masks);
  const diff = Buffer.alloc(expected.data.length);
  const differing = pixelmatch(expected.data, current.data, diff, expected.width, expected.height, { threshold: 0.1 });
  const diffRatio = differing / (expected.width * expected.height);
  if (differing <= MAX_DIFF_PIXELS_ALWAYS_OK || diffRatio <= MAX_DIFF_RATIO) return null;
  const diffPng = await sharp(diff, { raw: { width: expected.width, height: expected.height, channels: 4 } }).png().toBuffer();
  return { reason: `${(diffRatio * 100).toFixed(1)}% of the target's pixels differ from the recording`, diffRatio, actual, diff: diffPng };
}

/**
 * The diff image of two crops of one size (masked regions blanked), whether or not they count
 * as a match: evidence to look at, not a verdict. Undefined when the sizes differ.
 */
export async function diffImage(recorded: Buffer, actual: Buffer, masks: readonly Box[]): Promise<Buffer | undefined> {
  const [expected, current] = await Promise.all([decode(recorded), decode(actual)]);
  if (expected.width !== current.width || expected.height !== current.height) return undefined;
  paintMasks(expected, masks);
  paintMasks(current, masks);
  const diff = Buffer.alloc(expected.data.length);
  pixelmatch(expected.data, current.data, diff, expected.width, expected.height, { threshold: 0.1 });
  return sharp(diff, { raw: { width: expected.width, height: expected.height, channels: 4 } }).png().toBuffer();
}

/** Captures a page whose document is being swapped (a form posted, a redirect) may fail outright. */
const CAPTURE_ATTEMPTS = 4;
const CAPTURE_RETRY_PAUSE_MS = 150;

/**
 * Headless Chromium now and then refuses a capture ("Unable to capture screenshot") or stalls it
 * while a navigation swaps the document, and the old document's load state is already reached
 * when that happens: a few attempts, each after a pause and the new document's load, all within
 * the deadline.
 */
export async function captureSettled<T>(page: Page, deadline: Deadline, capture: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await capture();
    } catch (error) {
      if (attempt >= CAPTURE_ATTEMPTS || page.isClosed() || deadline.signal?.aborted || remainingMs(deadline) <= CAPTURE_RETRY_PAUSE_MS) throw error;
      await pause(deadline, CAPTURE_RETRY_PAUSE_MS);
      await page.waitForLoadState('domcontentloaded', { timeout: captureTimeout(deadline, VIEWPORT_CAPTURE_LIMIT_MS) }).catch(() => {});
    }
  }
}

/** The whole viewport (at device scale unless told otherwise); each attempt is bounded by the capture's own limit and the deadline. */
export async function viewportScreenshot(page: Page, deadline: Deadline, options: { scale?: 'css' | 'device' } = {}): Promise<Buffer> {
  return captureSettled(page, deadline, () =>
    oneCaptureAtATime(page, deadline, 'capturing the page', () => page.screenshot({ caret: 'hide', ...(options.scale ? { scale: options.scale } : {}), timeout: captureTimeout(deadline, VIEWPORT_CAPTURE_LIMIT_MS) })),
  );
}

/**
 * A crop whose clip reaches past the viewport (a target at its edge that moved a few pixels), cut
 * to the part inside: the live clip, the recorded crop's same part, and the masks moved with it.
 * Undefined when too little of the target is inside to compare it (less than half its box, or its
 * centre outside): a person would scroll first.
 */
export async function insideViewport(
  clip: Box,
  targetBox: Box,
  recorded: Buffer,
  masks: readonly Box[],
  viewport: { width: number; height: number },
): Promise<{ clip: Box; recorded: Buffer; masks: Box[] } | undefined> {
  const screen = { x: 0, y: 0, width: viewport.width, height: viewport.height };
  const visible = intersect(clip, screen);
  const targetVisible = intersect(targetBox, screen);
  const centre = { x: targetBox.x + targetBox.width / 2, y: targetBox.y + targetBox.height / 2 };
  if (!visible || !targetVisible || targetVisible.width * targetVisible.height < (targetBox.width * targetBox.height) / 2) return undefined;
  if (centre.x < 0 || centre.y < 0 || centre.x >= viewport.width || centre.y >= viewport.height) return undefined;
  // Whole pixels inside, so the recorded part and the live capture have one size.
  const left = Math.ceil(visible.x - clip.x);
  const top = Math.ceil(visible.y - clip.y);
  const width = Math.floor(visible.x + visible.width - clip.x) - left;
  const height = Math.floor(visible.y + visible.height - clip.y) - top;
  if (width <= 0 || height <= 0) return undefined;
  const meta = await sharp(recorded).metadata();
  if ((meta.width ?? 0) < left + width || (meta.height ?? 0) < top + height) return undefined;
  return {
    clip: { x: clip.x + left, y: clip.y + top, width, height },
    recorded: await sharp(recorded).extract({ left, top, width, height }).png().toBuffer(),
    masks: masks.map((mask) => ({ ...mask, x: mask.x - left, y: mask.y - top })),
  };
}

/** Crops known to decode, by hash: checked once per process (a header read), not on every step. */
const readableCrops = new Set<string>();

export async function readableImage(hash: string, bytes: Buffer): Promise<boolean> {
  if (readableCrops.has(hash)) return true;
  const ok = await sharp(bytes)
    .metadata()
    .then((meta) => (meta.width ?? 0) > 0 && (meta.height ?? 0) > 0)
    .catch(() => false);
  if (ok) readableCrops.add(hash);
  return ok;
}

import pixelmatch from 'pixelmatch';
import sharp from 'sharp';
import { intersect, type Box, type Point } from './geometry.js';

/**
 * What the computer-use proxy sees of a page: the screenshot an agent sent, decoded in memory and
 * never kept whole. A served step is checked by the crop around the point it acts on, compared
 * with the crop recorded there, with the regions that show typed values masked in both.
 *
 * There is no accessibility tree behind a screenshot, so the crop is wide and the threshold
 * strict (see docs/proxy.md, "Computer use: the check"): wide enough to hold a field's label
 * beside or above it, and strict enough that a label's one word changed is a miss.
 */
export type Screenshot = { width: number; height: number; /** RGBA, row by row. */ pixels: Buffer };

/** The crop around a point: wide enough to hold a label left of a field, high enough for one above it. */
export const CROP_WIDTH = 480;
export const CROP_HEIGHT = 96;
/** Per pixel, pixelmatch's colour distance (0 to 1) under which two pixels are the same. */
export const PIXEL_THRESHOLD = 0.1;
/** How many pixels of a crop may differ (not counting anti-aliasing) and still be the recorded look. */
export const MAX_DIFFERING_PIXELS = 12;

/** An image given inline as a data URL, the only kind that can be decoded and checked here. */
export const DATA_URL = /^data:image\/(png|jpeg|webp);base64,/;
/** A screenshot larger than this (4096×4096) is not decoded: nothing is served on it. */
const MAX_SCREEN_PIXELS = 4096 * 4096;

/** The screenshot of a data URL, or undefined when it is not an image sharp can read. */
export async function decodeScreenshot(dataUrl: string): Promise<Screenshot | undefined> {
  const match = DATA_URL.exec(dataUrl);
  if (!match) return undefined;
  try {
    const { data, info } = await sharp(Buffer.from(dataUrl.slice(match[0].length), 'base64'), { limitInputPixels: MAX_SCREEN_PIXELS })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { width: info.width, height: info.height, pixels: data };
  } catch {
    return undefined;
  }
}

/** The crop's box around a point, inside the screenshot (smaller only where the screenshot is). */
export function cropBoxAt(screen: { width: number; height: number }, point: Point): Box {
  const width = Math.min(CROP_WIDTH, screen.width);
  const height = Math.min(CROP_HEIGHT, screen.height);
  const x = clamp(Math.round(point.x - width / 2), 0, screen.width - width);
  const y = clamp(Math.round(point.y - height / 2), 0, screen.height - height);
  return { x, y, width, height };
}

/** The crop at this box as PNG bytes (what a step keeps), with the masks blanked: a typed value never reaches the store. */
export function cropPng(screen: Screenshot, box: Box, masks: readonly Box[] = []): Promise<Buffer> {
  const pixels = cut(screen, box);
  blankMasks(pixels, box, masks);
  return sharp(pixels, { raw: { width: box.width, height: box.height, channels: 4 } })
    .png()
    .toBuffer();
}

/**
 * Does the screenshot show, at the box, what the recorded crop shows? Masks are screenshot boxes
 * that show typed values: blanked in both. A reason when it does not, undefined when it does.
 */
export async function compareCrop(recordedPng: Buffer, screen: Screenshot, box: Box, masks: readonly Box[]): Promise<{ differing: number; reason?: string }> {
  const { data: expected, info } = await sharp(recordedPng).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  if (info.width !== box.width || info.height !== box.height) return { differing: box.width * box.height, reason: `the recorded crop is ${info.width}x${info.height}, not ${box.width}x${box.height}` };
  const actual = cut(screen, box);
  for (const pixels of [expected, actual]) blankMasks(pixels, box, masks);
  const differing = pixelmatch(expected, actual, undefined, box.width, box.height, { threshold: PIXEL_THRESHOLD });
  if (differing <= MAX_DIFFERING_PIXELS) return { differing };
  return { differing, reason: `${differing} pixels around the step's point differ from the recording (at most ${MAX_DIFFERING_PIXELS} may)` };
}

/**
 * The inside of the field at a point, read from the screenshot: the widest run of the point's own
 * colour across the rows and columns around it (the rows through a placeholder's letters are
 * short, those above and below them are not). What is typed there next shows inside it, so it is
 * masked in later checks; a point on no plain area gives a box of a few pixels.
 */
export function fieldAt(screen: Screenshot, point: Point): Box | undefined {
  const seed = plainestNear(screen, clamp(Math.round(point.x), 0, screen.width - 1), clamp(Math.round(point.y), 0, screen.height - 1));
  const colour = pixelAt(screen, seed.x, seed.y);
  const same = (x: number, y: number) => sameColour(pixelAt(screen, x, y), colour);
  let left = seed.x;
  let right = seed.x;
  let top = seed.y;
  let bottom = seed.y;
  // Rows joined to the seed by its colour down its own column: the same field, not the one below.
  for (const step of [-1, 1]) {
    for (let y = seed.y; y >= 0 && y < screen.height && Math.abs(y - seed.y) <= FIELD_REACH_Y && same(seed.x, y); y += step) {
      let x = seed.x;
      while (x > 0 && seed.x - x < FIELD_REACH_X && same(x - 1, y)) x--;
      left = Math.min(left, x);
      x = seed.x;
      while (x < screen.width - 1 && x - seed.x < FIELD_REACH_X && same(x + 1, y)) x++;
      right = Math.max(right, x);
    }
  }
  for (let x = left; x <= right; x += 2) {
    if (!same(x, seed.y)) continue;
    let y = seed.y;
    while (y > 0 && seed.y - y < FIELD_REACH_Y && same(x, y - 1)) y--;
    top = Math.min(top, y);
    y = seed.y;
    while (y < screen.height - 1 && y - seed.y < FIELD_REACH_Y && same(x, y + 1)) y++;
    bottom = Math.max(bottom, y);
  }
  // A run that reached the screen's edge or the reach is no field's inside (a borderless field on a
  // plain page): masking it would hide its neighbours from the check too.
  const unbounded = left === 0 || top === 0 || right === screen.width - 1 || bottom === screen.height - 1 || seed.x - left >= FIELD_REACH_X || right - seed.x >= FIELD_REACH_X || seed.y - top >= FIELD_REACH_Y || bottom - seed.y >= FIELD_REACH_Y;
  return unbounded ? undefined : { x: left, y: top, width: right - left + 1, height: bottom - top + 1 };
}

/**
 * The pixel nearest the point whose colour is the commonest around it: a point on a placeholder's
 * letters is moved to the field's background beside them.
 */
function plainestNear(screen: Screenshot, px: number, py: number): Point {
  const counts = new Map<string, number>();
  const around: { x: number; y: number; key: string }[] = [];
  for (let y = Math.max(0, py - SEED_REACH); y <= Math.min(screen.height - 1, py + SEED_REACH); y++) {
    for (let x = Math.max(0, px - SEED_REACH); x <= Math.min(screen.width - 1, px + SEED_REACH); x++) {
      const key = pixelAt(screen, x, y).join(',');
      counts.set(key, (counts.get(key) ?? 0) + 1);
      around.push({ x, y, key });
    }
  }
  const commonest = [...counts].sort((a, b) => b[1] - a[1])[0]![0];
  const candidates = around.filter((at) => at.key === commonest);
  return candidates.sort((a, b) => Math.hypot(a.x - px, a.y - py) - Math.hypot(b.x - px, b.y - py))[0]!;
}

const SEED_REACH = 7;
/** How far from its point a field's inside is looked for. */
const FIELD_REACH_X = 600;
const FIELD_REACH_Y = 100;
/** Per channel: a field's background drawn again (anti-aliasing at its edge is not its background). */
const SAME_COLOUR = 6;

function pixelAt(screen: Screenshot, x: number, y: number): [number, number, number] {
  const at = (y * screen.width + x) * 4;
  return [screen.pixels[at]!, screen.pixels[at + 1]!, screen.pixels[at + 2]!];
}

function sameColour(a: readonly number[], b: readonly number[]): boolean {
  return Math.abs(a[0]! - b[0]!) <= SAME_COLOUR && Math.abs(a[1]! - b[1]!) <= SAME_COLOUR && Math.abs(a[2]! - b[2]!) <= SAME_COLOUR;
}

/** The RGBA pixels of a box of the screenshot. */
function cut(screen: Screenshot, box: Box): Buffer {
  const out = Buffer.alloc(box.width * box.height * 4);
  for (let row = 0; row < box.height; row++) {
    const from = ((box.y + row) * screen.width + box.x) * 4;
    screen.pixels.copy(out, row * box.width * 4, from, from + box.width * 4);
  }
  return out;
}

/** Blanks, in the pixels of `box`, where the masks (screenshot boxes) fall inside it. */
function blankMasks(pixels: Buffer, box: Box, masks: readonly Box[]): void {
  for (const mask of masks) {
    const inside = intersect(mask, box);
    if (inside) blank(pixels, box.width, { ...inside, x: inside.x - box.x, y: inside.y - box.y });
  }
}

function blank(pixels: Buffer, width: number, box: Box): void {
  for (let y = box.y; y < box.y + box.height; y++) pixels.fill(0x80, (y * width + box.x) * 4, (y * width + box.x + box.width) * 4);
}

function clamp(value: number, low: number, high: number): number {
  return Math.max(low, Math.min(high, value));
}

/**
 * Whether what the box shows shows again somewhere else in the screenshot, to within what the
 * check tolerates (MAX_DIFFERING_PIXELS): repeated content (rows with identical buttons, a blank
 * region) where the crop cannot tell its target from another, so a step checked by it is never
 * served. A place a few pixels from the box is the box itself, not another.
 *
 * Each row's run of box.width pixels is hashed (rolling, mod 2^32, colours to 32 levels a channel).
 * A copy that differs in at most N pixels differs in at most N rows, so when the crop has N+1 rows
 * of its own (rows that do not stand everywhere), one of them is in the copy unchanged: the places
 * where those rows stand are the only candidates, kept when nearly all rows agree, and confirmed
 * with the check's own comparison. A crop with fewer such rows is searched on the ones it has: a
 * copy that changed every one of them is not found.
 */
export function cropFoundElsewhere(screen: Screenshot, box: Box): boolean {
  const { width, height } = screen;
  const span = width - box.width + 1;
  if (span <= 0 || box.height > height) return false;
  const rows = rowHashes(screen, box.width, span);
  const own = Array.from({ length: box.height }, (_, row) => rows[(box.y + row) * span + box.x]!);
  const counts = new Map<number, number>(own.map((hash) => [hash, 0]));
  for (const hash of rows) if (counts.has(hash)) counts.set(hash, counts.get(hash)! + 1);
  // One anchor per distinct row (rows alike in the crop stand at the same places), the rarest first.
  const distinct = [...new Map(own.map((hash, row) => [hash, { row, count: counts.get(hash)! }])).values()].sort((a, b) => a.count - b.count);
  const anchors = distinct.slice(0, MAX_DIFFERING_PIXELS + 1).filter((anchor) => anchor.count <= MAX_CANDIDATES);
  // Not one row that does not stand everywhere (a crop of plain colour): nothing in it can be shown to be only here.
  if (anchors.length === 0) return true;
  const tried = new Set<number>();
  const recorded = cut(screen, box);
  let confirmations = 0;
  for (const anchor of anchors) {
    for (let y = anchor.row; y <= height - box.height + anchor.row; y++) {
      for (let x = 0; x < span; x++) {
        if (rows[y * span + x] !== own[anchor.row]) continue;
        const top = y - anchor.row;
        if ((Math.abs(x - box.x) <= SAME_PLACE && Math.abs(top - box.y) <= SAME_PLACE) || tried.has(top * span + x)) continue;
        tried.add(top * span + x);
        const agreeing = own.reduce((sum, hash, row) => sum + (rows[(top + row) * span + x] === hash ? 1 : 0), 0);
        if (agreeing < box.height - MAX_DIFFERING_PIXELS) continue;
        // Past this many near places, the crop is too much like its surroundings to be shown alone.
        if (++confirmations > MAX_CONFIRMATIONS) return true;
        const other = cut(screen, { x, y: top, width: box.width, height: box.height });
        if (pixelmatch(recorded, other, undefined, box.width, box.height, { threshold: PIXEL_THRESHOLD }) <= MAX_DIFFERING_PIXELS) return true;
      }
    }
  }
  return false;
}

/** Candidate places an anchor row may have before the crop counts as plain colour. */
const MAX_CANDIDATES = 50_000;
/** Near places compared pixel by pixel before the crop counts as a look-alike. */
const MAX_CONFIRMATIONS = 100;
/** A place this close to the box is the box: a target a few pixels off is the same target. */
const SAME_PLACE = 3;

/** The hash of every run of `run` pixels of every row, by row then by first column. */
function rowHashes(screen: Screenshot, run: number, span: number): Uint32Array {
  const rows = new Uint32Array(span * screen.height);
  let power = 1;
  for (let i = 1; i < run; i++) power = Math.imul(power, HASH_BASE) >>> 0;
  for (let y = 0; y < screen.height; y++) {
    let hash = 0;
    for (let x = 0; x < run; x++) hash = (Math.imul(hash, HASH_BASE) + rgbAt(screen, x, y)) >>> 0;
    rows[y * span] = hash;
    for (let x = 1; x < span; x++) {
      hash = (Math.imul((hash - Math.imul(rgbAt(screen, x - 1, y), power)) >>> 0, HASH_BASE) + rgbAt(screen, x + run - 1, y)) >>> 0;
      rows[y * span + x] = hash;
    }
  }
  return rows;
}

const HASH_BASE = 0x01000193;

/** A pixel's colour for the row hash, each channel to 32 levels: shades the check calls the same mostly hash the same (the comparison decides). */
function rgbAt(screen: Screenshot, x: number, y: number): number {
  const at = (y * screen.width + x) * 4;
  return ((screen.pixels[at]! >> 3) << 10) | ((screen.pixels[at + 1]! >> 3) << 5) | (screen.pixels[at + 2]! >> 3);
}

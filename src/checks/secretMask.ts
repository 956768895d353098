import type { Page } from 'playwright';
import sharp from 'sharp';
import type { BoundParams } from '../params/boundParams.js';
import { intersect, roundBox, type Box } from './geometry.js';
import { paramRegions } from './paramRegions.js';

/** Runs in the page: the boxes of password fields overlapping `within` (viewport CSS pixels). */
const FIND_PASSWORDS = `(function (within) {
  var found = [];
  var fields = document.querySelectorAll('input[type=password i]');
  for (var i = 0; i < fields.length; i++) {
    var r = fields[i].getBoundingClientRect();
    if (r.width > 0 && r.height > 0 && r.right > within.x && r.x < within.x + within.width && r.bottom > within.y && r.y < within.y + within.height) found.push({ x: r.x, y: r.y, width: r.width, height: r.height });
  }
  return found;
})`;

/**
 * Boxes inside `within`, relative to it, that must never be seen in a screenshot: password
 * fields, and wherever the page shows a secret parameter's value.
 */
export async function secretRegions(page: Page, params: BoundParams, within: Box, options: { strict?: boolean } = {}): Promise<Box[]> {
  const values = params.secretValues();
  const shown = values.length > 0 ? await paramRegions(page, values, within, options) : [];
  const lookup = page.evaluate(`${FIND_PASSWORDS}(${JSON.stringify(within)})`);
  const passwords = ((await (options.strict ? lookup : lookup.catch(() => []))) as Box[]).flatMap((box) => {
    const inside = intersect(box, within);
    return inside ? [roundBox({ ...inside, x: inside.x - within.x, y: inside.y - within.y })] : [];
  });
  return [...passwords, ...shown];
}

/** Paints solid rectangles over `boxes` (CSS pixels; `scale` image pixels per CSS pixel) in a PNG. */
export async function paintBoxes(png: Buffer, boxes: readonly Box[], scale = 1): Promise<Buffer> {
  if (boxes.length === 0) return png;
  const { width, height } = await sharp(png).metadata();
  if (!width || !height) return png;
  const overlays = boxes.flatMap((box) => {
    const area = intersect({ x: box.x * scale, y: box.y * scale, width: box.width * scale, height: box.height * scale }, { x: 0, y: 0, width, height });
    if (!area) return [];
    const left = Math.floor(area.x);
    const top = Math.floor(area.y);
    const w = Math.min(width - left, Math.ceil(area.x + area.width) - left);
    const h = Math.min(height - top, Math.ceil(area.y + area.height) - top);
    if (w <= 0 || h <= 0) return [];
    return [{ input: { create: { width: w, height: h, channels: 4 as const, background: { r: 0, g: 0, b: 0, alpha: 1 } } }, left, top }];
  });
  if (overlays.length === 0) return png;
  return sharp(png).composite(overlays).png().toBuffer();
}

/**
 * A viewport screenshot with password fields and shown secrets painted over. Strict: when the
 * page cannot be searched for them, throws rather than return a picture that may show one.
 */
export async function maskScreenshot(page: Page, png: Buffer, params: BoundParams, viewport: { width: number; height: number }, options: { strict?: boolean } = {}): Promise<Buffer> {
  const boxes = await secretRegions(page, params, { x: 0, y: 0, width: viewport.width, height: viewport.height }, options);
  if (boxes.length === 0) return png;
  const { width } = await sharp(png).metadata();
  return paintBoxes(png, boxes, width ? width / viewport.width : 1);
}

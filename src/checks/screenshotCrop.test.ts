import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { compareCrop, cropBoxAt, cropFoundElsewhere, cropPng, decodeScreenshot, fieldAt, MAX_DIFFERING_PIXELS, type Screenshot } from './screenshotCrop.js';

/** A grey page with a white field (x 100..299, y 40..69) and a dark label block left of it. */
function page(options: { label?: boolean; typed?: number; placeholder?: boolean } = {}): Screenshot {
  const width = 640;
  const height = 200;
  const pixels = Buffer.alloc(width * height * 4, 0xdd);
  const paint = (x0: number, y0: number, w: number, h: number, value: number) => {
    for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) pixels.fill(value, (y * width + x) * 4, (y * width + x) * 4 + 3);
  };
  paint(99, 39, 202, 32, 0x80);
  paint(100, 40, 200, 30, 0xff);
  if (options.label !== false) paint(20, 50, 60, 10, 0x20);
  if (options.typed) paint(104, 48, options.typed, 14, 0x10);
  // A placeholder's letters: thin grey strokes.
  if (options.placeholder) for (let x = 104; x < 224; x += 4) paint(x, 48, 1, 14, 0x99);
  for (let at = 3; at < pixels.length; at += 4) pixels[at] = 0xff;
  return { width, height, pixels };
}

describe('the crop check of a computer-use step', () => {
  it('reads a data URL, and refuses what is not an image', async () => {
    const png = await sharp(page().pixels, { raw: { width: 640, height: 200, channels: 4 } }).png().toBuffer();
    expect(await decodeScreenshot(`data:image/png;base64,${png.toString('base64')}`)).toMatchObject({ width: 640, height: 200 });
    expect(await decodeScreenshot('data:image/png;base64,AAAA')).toBeUndefined();
    expect(await decodeScreenshot('https://example.com/shot.png')).toBeUndefined();
  });

  it('passes the same look, and fails a label changed beside the point', async () => {
    const box = cropBoxAt(page(), { x: 200, y: 55 });
    expect(box).toEqual({ x: 0, y: 7, width: 480, height: 96 });
    const recorded = await cropPng(page(), box);
    expect((await compareCrop(recorded, page(), box, [])).reason).toBeUndefined();
    const changed = await compareCrop(recorded, page({ label: false }), box, []);
    expect(changed.differing).toBeGreaterThan(MAX_DIFFERING_PIXELS);
    expect(changed.reason).toMatch(/600 pixels around the step's point differ/);
  });

  it("finds a field's inside from a point in it, and masks another value typed there", async () => {
    const field = fieldAt(page(), { x: 200, y: 55 })!;
    expect(field).toEqual({ x: 100, y: 40, width: 200, height: 30 });
    // A point on a placeholder's letters starts from the background beside them.
    expect(fieldAt(page({ placeholder: true }), { x: 152, y: 55 })).toEqual({ x: 100, y: 40, width: 200, height: 30 });
    const box = cropBoxAt(page(), { x: 200, y: 55 });
    const recorded = await cropPng(page({ typed: 40 }), box);
    expect((await compareCrop(recorded, page({ typed: 150 }), box, [])).reason).toBeDefined();
    expect((await compareCrop(recorded, page({ typed: 150 }), box, [field])).reason).toBeUndefined();
    // The mask hides the field's inside only: the label beside it is still checked.
    expect((await compareCrop(recorded, page({ typed: 150, label: false }), box, [field])).reason).toBeDefined();
  });

  it('finds a crop that shows again elsewhere (repeated rows, a blank region), and only then', () => {
    // Two identical rows 100 px apart: a label and a field each.
    const { screen, width, height, paint, letters } = canvas(0xdd);
    for (const top of [60, 260]) {
      letters(20, top + 6, 60, 18, 0);
      paint(100, top, 200, 30, 0xff);
    }
    const row = cropBoxAt(screen, { x: 200, y: 75 });
    expect(cropFoundElsewhere(screen, row)).toBe(true);
    // A 3x3 mark on the second row: within what the check tolerates, so still a look-alike.
    paint(21, 271, 3, 3, 0x90);
    expect(cropFoundElsewhere(screen, row)).toBe(true);
    // A second word on its label: the first row is itself alone again.
    letters(84, 266, 12, 18, 3);
    expect(cropFoundElsewhere(screen, row)).toBe(false);
    // A blank corner shows everywhere.
    expect(cropFoundElsewhere(screen, { x: 500, y: 300, width: 200, height: 60 })).toBe(true);
    // A whole-screen crop has nowhere else to be.
    expect(cropFoundElsewhere(screen, { x: 0, y: 0, width, height })).toBe(false);
  });

  it('takes rows a shade apart for copies; a mark on a plain page is only there', () => {
    const { screen, width, paint } = canvas(0xff);
    // Two rows, the second on a background a shade darker (249 for 255): the check calls them the same.
    paint(0, 200, width, 140, 0xf9);
    for (const top of [60, 260]) {
      paint(20, top + 10, 60, 10, 0x20);
      paint(100, top, 200, 30, 0x90);
      paint(110, top + 8, 120, 14, 0x30);
    }
    expect(cropFoundElsewhere(screen, cropBoxAt(screen, { x: 200, y: 75 }))).toBe(true);
    // A small mark on a plain page is itself only there; a plain corner shows everywhere.
    const plain = canvas(0xff);
    plain.paint(300, 100, 30, 6, 0);
    expect(cropFoundElsewhere(plain.screen, cropBoxAt(plain.screen, { x: 315, y: 103 }))).toBe(false);
    expect(cropFoundElsewhere(plain.screen, cropBoxAt(plain.screen, { x: 600, y: 330 }))).toBe(true);
  });
});

/** An 800x400 screen of one grey, to paint blocks and letters on (strokes whose places differ from row to row, as rendered text's do). */
function canvas(background: number) {
  const width = 800;
  const height = 400;
  const pixels = Buffer.alloc(width * height * 4, background);
  for (let at = 3; at < pixels.length; at += 4) pixels[at] = 0xff;
  const set = (x: number, y: number, value: number) => pixels.fill(value, (y * width + x) * 4, (y * width + x) * 4 + 3);
  const paint = (x0: number, y0: number, w: number, h: number, value: number) => {
    for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) set(x, y, value);
  };
  const letters = (x0: number, y0: number, w: number, h: number, seed: number) => {
    for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) if (((Math.imul(x - x0, 73856093) ^ Math.imul(y - y0, 19349663) ^ Math.imul(seed, 83492791)) >>> 0) % 5 === 0) set(x, y, 0x20);
  };
  return { screen: { width, height, pixels }, width, height, paint, letters };
}

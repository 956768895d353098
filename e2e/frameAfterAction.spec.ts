import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { captureFrame, type ViewportFrame } from '../src/checks/cropCapture.js';
import { watchChanges } from '../src/checks/pageChanges.js';
import { cropAfterAction, type AfterActionFrame } from '../src/engine/afterActionFrame.js';
import { deadlineIn } from '../src/progress/deadline.js';

/**
 * The next step's crop is cut from the screenshot asked for right after the step before acted,
 * only when nothing that changes pixels has happened since it was asked for (src/checks/frameStill.ts).
 * Each test hands cropAfterAction a frame painted all red, which no live capture of these pages
 * shows: a red crop means the frame was used, any other means the page was captured again.
 */
const PAGE = `<!doctype html><html><body style="margin:0;font:14px Arial;background:#fff">
<p style="margin:20px">Name <input id="name"> <button id="save" type="button" style="width:120px;height:32px">Save</button></p>
<p id="elsewhere" style="margin:20px">Elsewhere</p>
<div style="height:1600px"></div></body></html>`;

// Around the button, above the paragraph below it.
const CLIP = { x: 0, y: 0, width: 480, height: 60 };

async function pageWithLog(page: Page, html = PAGE): Promise<{ box: { x: number; y: number; width: number; height: number } }> {
  await page.setContent(html);
  await watchChanges(page);
  const box = (await page.locator('#save').boundingBox())!;
  // The log must be older than the frame: a log begun after it proves nothing.
  await page.waitForTimeout(20);
  return { box };
}

async function redFrame(page: Page): Promise<ViewportFrame> {
  // Asked for now: painting the picture takes a while.
  const requestedAt = Date.now();
  const size = page.viewportSize()!;
  const png = await sharp({ create: { width: size.width, height: size.height, channels: 3, background: { r: 255, g: 0, b: 0 } } }).png().toBuffer();
  return { png, requestedAt, width: size.width, height: size.height };
}

async function isRed(crop: Buffer): Promise<boolean> {
  const { data, info } = await sharp(crop).raw().toBuffer({ resolveWithObject: true });
  for (let i = 0; i < data.length; i += info.channels) if (data[i] !== 255 || data[i + 1] !== 0 || data[i + 2] !== 0) return false;
  return true;
}

async function cropWith(page: Page, after: AfterActionFrame, box: { x: number; y: number; width: number; height: number }): Promise<Buffer> {
  return cropAfterAction(page, after, CLIP, box, deadlineIn(5000));
}

test('a still page: the crop is cut from the frame after the action', async ({ page }) => {
  const { box } = await pageWithLog(page);
  const frame = await redFrame(page);
  expect(await isRed(await cropWith(page, { page, frame: Promise.resolve(frame) }, box))).toBe(true);
});

const CHANGES: Record<string, string> = {
  'any DOM change, even far from the target': `document.getElementById('elsewhere').textContent = 'Changed'`,
  'a change of style alone': `document.getElementById('save').style.color = 'red'`,
  'a scroll': `window.scrollTo(0, 5)`,
  'the focus moved': `document.getElementById('name').focus()`,
  'the viewport resized': `window.dispatchEvent(new Event('resize'))`,
};

for (const [what, script] of Object.entries(CHANGES)) {
  test(`${what} after the frame was asked for: the crop is captured again`, async ({ page }) => {
    const { box } = await pageWithLog(page);
    const frame = await redFrame(page);
    await page.evaluate(script);
    expect(await isRed(await cropWith(page, { page, frame: Promise.resolve(frame) }, box))).toBe(false);
  });
}

test('an image that loaded after the frame was asked for: captured again', async ({ page }) => {
  await page.route('http://rote.test/slow.png', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    await route.fulfill({ contentType: 'image/png', body: Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64') });
  });
  const { box } = await pageWithLog(page);
  // Put in the page before the frame (a DOM change the frame shows), loaded after it: no DOM change marks the load.
  await page.evaluate(`window.loaded = new Promise((resolve) => { const img = new Image(); img.onload = resolve; img.src = 'http://rote.test/slow.png'; document.body.appendChild(img); }); 0`);
  await page.waitForTimeout(20);
  const frame = await redFrame(page);
  await page.evaluate('window.loaded');
  expect(await isRed(await cropWith(page, { page, frame: Promise.resolve(frame) }, box))).toBe(false);
});

test('an animation over the target: captured again; one elsewhere does not matter', async ({ page }) => {
  const html = PAGE.replace('</body>', `<style>@keyframes pulse { from { opacity: 1 } to { opacity: .5 } } .pulse { animation: pulse 1s infinite alternate }</style></body>`);
  const { box } = await pageWithLog(page, html);
  await page.evaluate(`document.getElementById('elsewhere').className = 'pulse'`);
  await page.waitForTimeout(20);
  expect(await isRed(await cropWith(page, { page, frame: Promise.resolve(await redFrame(page)) }, box))).toBe(true);
  await page.evaluate(`document.getElementById('save').className = 'pulse'`);
  await page.waitForTimeout(20);
  expect(await isRed(await cropWith(page, { page, frame: Promise.resolve(await redFrame(page)) }, box))).toBe(false);
});

const DRAWN: Record<string, string> = {
  'a canvas': `<canvas style="position:absolute;left:0;top:0;width:800px;height:100px"></canvas>`,
  'a frame': `<iframe style="position:absolute;left:0;top:0;width:800px;height:100px;border:0;opacity:.01"></iframe>`,
  'a shadow host': `<rote-note style="position:absolute;left:0;top:0;width:800px;height:100px;display:block"></rote-note>`,
};

for (const [what, element] of Object.entries(DRAWN)) {
  test(`${what} over the target, whose drawing no DOM log sees: captured again`, async ({ page }) => {
    const { box } = await pageWithLog(page, PAGE.replace('<div style="height:1600px">', `${element}<div style="height:1600px">`));
    expect(await isRed(await cropWith(page, { page, frame: Promise.resolve(await redFrame(page)) }, box))).toBe(false);
  });
}

test('a change log begun after the frame (a new document): captured again', async ({ page }) => {
  const { box } = await pageWithLog(page);
  const frame = await redFrame(page);
  await page.setContent(PAGE);
  await watchChanges(page);
  expect(await isRed(await cropWith(page, { page, frame: Promise.resolve(frame) }, box))).toBe(false);
});

test('a frame of another page, or none: captured again', async ({ page, context }) => {
  const { box } = await pageWithLog(page);
  const other = await context.newPage();
  expect(await isRed(await cropWith(page, { page: other, frame: Promise.resolve(await redFrame(page)) }, box))).toBe(false);
  expect(await isRed(await cropWith(page, { page, frame: Promise.resolve(undefined) }, box))).toBe(false);
});

test('a real frame after the action shows the page: its crop is the live crop', async ({ page }) => {
  const { box } = await pageWithLog(page);
  const frame = (await captureFrame(page, deadlineIn(5000)))!;
  expect(frame).toBeDefined();
  const fromFrame = await cropWith(page, { page, frame: Promise.resolve(frame) }, box);
  await page.evaluate(`document.getElementById('elsewhere').textContent = 'Changed'`);
  const fresh = await cropWith(page, { page, frame: Promise.resolve(frame) }, box);
  expect(fromFrame.equals(fresh)).toBe(true);
});

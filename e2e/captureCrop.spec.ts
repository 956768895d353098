import { expect, test, type Browser } from '@playwright/test';
import sharp from 'sharp';
import { captureCrop } from '../src/checks/cropCapture.js';
import { compareCrops, screenshotCrop, viewportScreenshot } from '../src/checks/visual.js';
import { deadlineIn } from '../src/progress/deadline.js';

/**
 * A check's live crop (one CDP capture, captureCrop) must show what a recorded crop (Playwright's
 * screenshot, screenshotCrop) shows of the same clip: on a scrolled page, at device scale 1 and 2.
 */
const PAGE = `<!doctype html><html><body style="margin:0;font:14px Arial">
<div style="height:900px;background:linear-gradient(#fff,#ddd)"></div>
<form><label>Name <input id="name" value="Ada"></label> <button type="button" style="background:#2a6;color:#fff">Save</button></form>
<div style="height:900px"></div></body></html>`;

/** The page scrolled to its button, and the button's crop clip (its box and a margin). */
async function scrolledToButton(browser: Browser, deviceScaleFactor: number) {
  const context = await browser.newContext({ viewport: { width: 800, height: 600 }, deviceScaleFactor });
  const page = await context.newPage();
  await page.setContent(PAGE);
  await page.evaluate('window.scrollTo(0, 700)');
  const box = (await page.locator('button').boundingBox())!;
  const clip = { x: Math.round(box.x - 6), y: Math.round(box.y - 6), width: Math.round(box.width + 12), height: Math.round(box.height + 12) };
  return { context, page, clip };
}

for (const deviceScaleFactor of [1, 2]) {
  test(`the same clip captured either way gives the same pixels at device scale ${deviceScaleFactor}, scrolled`, async ({ browser }) => {
    const { context, page, clip } = await scrolledToButton(browser, deviceScaleFactor);
    const recorded = await screenshotCrop(page, clip, deadlineIn(5000));
    const live = await captureCrop(page, clip, deadlineIn(5000));
    expect(await compareCrops(recorded, live, [])).toBeNull();
    // And it is the button, not what lay at that clip before the page scrolled.
    await page.evaluate('window.scrollTo(0, 0)');
    expect(await compareCrops(recorded, await captureCrop(page, clip, deadlineIn(5000)), [])).not.toBeNull();
    await context.close();
  });
}

test('captures that overlap, of a crop and of the whole page, leave the page laid out in its own viewport', async ({ browser }) => {
  const { context, page, clip } = await scrolledToButton(browser, 1);
  const recorded = await screenshotCrop(page, clip, deadlineIn(5000));
  // A crop taken early and dropped while the next capture starts, as a check does: Chromium
  // emulates a viewport of the clip's size for each, and overlapping ones restore each other's.
  for (let i = 0; i < 20; i++) {
    await Promise.all([captureCrop(page, clip, deadlineIn(5000)), screenshotCrop(page, clip, deadlineIn(5000)), viewportScreenshot(page, deadlineIn(5000)), captureCrop(page, clip, deadlineIn(5000))]);
    expect(await page.evaluate('[innerWidth, innerHeight]')).toEqual([800, 600]);
  }
  expect(await compareCrops(recorded, await captureCrop(page, clip, deadlineIn(5000)), [])).toBeNull();
  await context.close();
});

for (const deviceScaleFactor of [1, 2]) {
  test(`a crop taken where the last capture's scroll put it is taken again when the page has scrolled since, at device scale ${deviceScaleFactor}`, async ({ browser }) => {
    const { context, page, clip } = await scrolledToButton(browser, deviceScaleFactor);
    const recorded = await screenshotCrop(page, clip, deadlineIn(5000));
    const pixels = (png: Buffer) => sharp(png).ensureAlpha().raw().toBuffer();
    // The page's layout is learned at the top, then the page scrolls to its button: the capture
    // sent at once at the old scroll shows the gradient, and must not be the one returned.
    await page.evaluate('window.scrollTo(0, 0)');
    const atTop = await captureCrop(page, clip, deadlineIn(5000));
    await page.evaluate('window.scrollTo(0, 700)');
    const live = await captureCrop(page, clip, deadlineIn(5000));
    expect(await compareCrops(recorded, live, [])).toBeNull();
    if (deviceScaleFactor === 1) expect((await pixels(live)).equals(await pixels(recorded))).toBe(true);
    expect(await compareCrops(recorded, atTop, [])).not.toBeNull();
    // And back: the layout learned at the button is the stale one now.
    await page.evaluate('window.scrollTo(0, 0)');
    expect(await compareCrops(atTop, await captureCrop(page, clip, deadlineIn(5000)), [])).toBeNull();
    // A clip past the viewport's edge is taken at its own size, in CSS pixels.
    const edge = { x: 800 - 40, y: clip.y, width: 60, height: clip.height };
    const { width, height } = await sharp(await captureCrop(page, edge, deadlineIn(5000))).metadata();
    expect([width, height]).toEqual([60, clip.height]);
    await context.close();
  });
}

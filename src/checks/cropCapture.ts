import type { CDPSession, Page } from 'playwright';
import { isOver, narrowed, withinDeadline, type Deadline } from '../progress/deadline.js';
import { oneCaptureAtATime } from './captureGate.js';
import { cdpSession } from './cdp.js';
import { cutPixels } from './cropPixels.js';
import type { Box } from './geometry.js';
import { captureSettled, compareCrops, CROP_CAPTURE_LIMIT_MS, type VisualMismatch } from './visual.js';

type LayoutMetrics = {
  cssVisualViewport?: { pageX: number; pageY: number; clientWidth: number; clientHeight: number };
  visualViewport: { pageX: number; pageY: number; scale: number; clientWidth: number; clientHeight: number };
  contentSize: { width: number };
  cssContentSize?: { width: number };
};

/**
 * A clip of the viewport at CSS scale, as screenshotCrop takes it, in one CDP capture: no script
 * runs in the page before or after (Playwright's screenshot hides the caret and waits for fonts
 * in every frame first), so a read of the page can go on while the capture waits for its frame.
 * The caret never matters to a check (the inside of a text control is masked), and a font still
 * loading shows as a mismatch that the next shot settles. Each attempt is bounded by the crop's
 * limit and the deadline.
 *
 * Where a CSS pixel is a device pixel (no device scale, no pinch zoom) the whole viewport is
 * captured and the clip cut from it in Node: the same pixels (e2e/captureCrop.spec.ts), in one
 * frame instead of two. Chromium takes a clipped capture by emulating a viewport of the clip's size
 * and then restoring it, which costs a frame each way (33 ms against 16 ms here, measured on
 * the intake form); the whole viewport, PNG-encoded for speed (lossless all the same), is cut in
 * about a millisecond.
 */
export async function captureCrop(page: Page, clip: Box, deadline: Deadline): Promise<Buffer> {
  return (await captureCropAndView(page, clip, deadline)).crop;
}

/**
 * The whole viewport a crop was cut from, with the viewport's size in CSS pixels: another clip of
 * the same moment can be cut from it (cutFromView).
 */
export type ViewShot = { png: Buffer; width: number; height: number };

/** captureCrop, with the viewport it was cut from where it was (no device scale, no pinch zoom). */
export async function captureCropAndView(page: Page, clip: Box, deadline: Deadline): Promise<{ crop: Buffer; view?: ViewShot }> {
  return captureSettled(page, deadline, async () => {
    // The session is opened at a run's start (followWindow.ts): one that never answers is bounded
    // like the capture itself, not waited for past the deadline.
    const cdp = await withinDeadline(narrowed(deadline, CROP_CAPTURE_LIMIT_MS), cdpSession(page), 'opening a DevTools session for the crop');
    const capture = async (): Promise<{ crop: Buffer; view?: ViewShot }> => {
      // The viewport is asked for beside the layout metrics, which say whether it can be cut from
      // (one round trip, not two), unless the page's last crop could not be: it has a device scale.
      const wholeAsked = cutLastTime.get(page) !== false ? captureViewport(cdp) : undefined;
      const [metrics, early] = await Promise.all([cdp.send('Page.getLayoutMetrics') as unknown as Promise<LayoutMetrics>, wholeAsked]);
      // The clip is in the document's CSS pixels, scrolled and zoomed as the viewport is, as Playwright computes it.
      const view = metrics.cssVisualViewport ?? metrics.visualViewport;
      const zoom = metrics.visualViewport.scale || 1;
      const deviceScale = metrics.cssContentSize?.width ? metrics.contentSize.width / metrics.cssContentSize.width || 1 : 1;
      const cuttable = zoom === 1 && deviceScale === 1;
      cutLastTime.set(page, cuttable);
      if (cuttable && insideViewport(clip, view)) {
        const whole = early ?? (await captureViewport(cdp));
        const cut = whole && atCssScale(whole, page) && (await cutFrom(whole, clip));
        if (cut) return { crop: cut, view: { png: whole, width: view.clientWidth, height: view.clientHeight } };
      }
      const documentClip = { x: view.pageX + clip.x, y: view.pageY + clip.y, width: Math.ceil(clip.width / zoom), height: Math.ceil(clip.height / zoom), scale: zoom / deviceScale };
      const shot = await cdp.send('Page.captureScreenshot', { format: 'png', clip: documentClip, captureBeyondViewport: false });
      return { crop: Buffer.from(shot.data, 'base64') };
    };
    return oneCaptureAtATime(page, narrowed(deadline, CROP_CAPTURE_LIMIT_MS), "capturing the target's crop", capture);
  });
}

/**
 * Another clip of a viewport a crop was cut from: the page as it was at that capture. Undefined
 * when the clip is not wholly inside it.
 */
export function cutFromView(view: ViewShot, clip: Box): Promise<Buffer | undefined> {
  return insideViewport(clip, { clientWidth: view.width, clientHeight: view.height }) ? cutFrom(view.png, clip) : Promise.resolve(undefined);
}

/** Whether the page's last crop could be cut from its viewport (no device scale, no pinch zoom). */
const cutLastTime = new WeakMap<Page, boolean>();

/** The whole viewport at device scale, PNG-encoded for speed (lossless all the same); undefined when Chromium refuses it. */
async function captureViewport(cdp: CDPSession): Promise<Buffer | undefined> {
  const shot = await cdp.send('Page.captureScreenshot', { format: 'png', optimizeForSpeed: true, captureBeyondViewport: false }).catch(() => undefined);
  return shot && Buffer.from(shot.data, 'base64');
}

/**
 * Whether a capture of the viewport has one pixel per CSS pixel: as wide as the page's viewport.
 * The layout metrics say so in this Chromium (at a device scale it gives the viewport at CSS size
 * too); a Chromium that gave device pixels would be cut at the wrong place without this.
 */
function atCssScale(png: Buffer, page: Page): boolean {
  const viewport = page.viewportSize();
  // A PNG's width is the first field of its header chunk, after the 8-byte signature and the chunk's length and type.
  return viewport === null || (png.length >= 24 && png.readUInt32BE(16) === viewport.width);
}

function insideViewport(clip: Box, view: { clientWidth: number; clientHeight: number }): boolean {
  return Number.isInteger(clip.x) && Number.isInteger(clip.y) && Number.isInteger(clip.width) && Number.isInteger(clip.height) && clip.x >= 0 && clip.y >= 0 && clip.width > 0 && clip.height > 0 && clip.x + clip.width <= view.clientWidth && clip.y + clip.height <= view.clientHeight;
}

/** The clip cut from a capture of the whole viewport; undefined when the capture does not hold it (it is not the viewport at one pixel per CSS pixel). */
function cutFrom(whole: Buffer, clip: Box): Promise<Buffer | undefined> {
  return cutPixels(whole, { left: clip.x, top: clip.y, width: clip.width, height: clip.height });
}

/**
 * Playwright's stable-screenshot idea, one shot in the usual case: take the crop and compare;
 * on a mismatch keep taking it until two consecutive shots are equal (the page has settled)
 * or `patience` is over, and compare the last one. Each capture is bounded by `deadline` (the
 * run's): a check that may not wait still gets its one capture.
 */
export async function matchCropStable(
  page: Page,
  clip: Box,
  recorded: Buffer,
  masks: readonly Box[],
  patience: Deadline,
  deadline: Deadline,
  /** A crop of this clip already taken for this check (while the target was read), used as the first shot. */
  first?: Buffer,
): Promise<{ mismatch: VisualMismatch | null; actual: Buffer; shots: number }> {
  let actual = first ?? (await captureCrop(page, clip, deadline));
  let shots = 1;
  let mismatch = await compareCrops(recorded, actual, masks);
  if (mismatch) {
    // A first shot that differs is looked at once more, even by a check that may not wait (a
    // re-join's): a frame taken while the page was still changing (a popup fading out) is no
    // verdict, and a shot taken beside the target's read only ever speeds up a match.
    actual = await captureCrop(page, clip, deadline);
    shots++;
    mismatch = await compareCrops(recorded, actual, masks);
  }
  while (mismatch && !isOver(patience) && !isOver(deadline)) {
    const next = await captureCrop(page, clip, deadline);
    shots++;
    const settled = next.equals(actual);
    actual = next;
    if (settled) break;
    mismatch = await compareCrops(recorded, actual, masks);
  }
  return { mismatch, actual, shots };
}

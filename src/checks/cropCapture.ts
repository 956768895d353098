import type { CDPSession, Page } from 'playwright';
import { isOver, narrowed, withinDeadline, type Deadline } from '../progress/deadline.js';
import { oneCaptureAtATime } from './captureGate.js';
import { cdpSession } from './cdp.js';
import type { Box } from './geometry.js';
import { captureSettled, compareCrops, CROP_CAPTURE_LIMIT_MS, type VisualMismatch } from './visual.js';

type LayoutMetrics = {
  cssVisualViewport?: { pageX: number; pageY: number };
  visualViewport: { pageX: number; pageY: number; scale: number };
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
 * The clip is asked for in the document's pixels, which depend on the scroll and the zoom: where
 * the page's last capture learned them, the capture is sent at once with them, beside the layout
 * metrics that say whether they still hold, and the metrics are read again once the shot is in; a
 * shot that either read does not confirm is thrown away and taken again. (Asking for the metrics
 * first cost their round trip, which waits behind the page's main thread, before every capture:
 * 15 ms a check after a step, measured.)
 */
export async function captureCrop(page: Page, clip: Box, deadline: Deadline): Promise<Buffer> {
  return captureSettled(page, deadline, async () => {
    // The session is opened at a run's start (followWindow.ts): one that never answers is bounded
    // like the capture itself, not waited for past the deadline.
    const cdp = await withinDeadline(narrowed(deadline, CROP_CAPTURE_LIMIT_MS), cdpSession(page), 'opening a DevTools session for the crop');
    const capture = async (): Promise<Buffer> => {
      const known = lastLayout.get(page);
      const guessed = known ? clipShot(cdp, known, clip) : undefined;
      // Not left unhandled while the metrics are awaited: its failure is met below, where it is awaited.
      guessed?.catch(() => undefined);
      let layout: Layout;
      try {
        layout = await layoutNow(cdp);
      } catch (error) {
        // A shot still on its way holds the page until it is in: the next capture (a retry) must not overlap it (captureGate.ts).
        await guessed?.catch(() => undefined);
        throw error;
      }
      lastLayout.set(page, layout);
      if (guessed && known && sameLayout(known, layout)) {
        const shot = await guessed;
        // The metrics may have been answered before the shot's frame: read again after it, they
        // show a scroll begun in between (a smooth scroll after the step before), which would
        // have put another part of the document on the screen than the shot shows.
        const after = await layoutNow(cdp);
        lastLayout.set(page, after);
        if (sameLayout(known, after)) return shot;
        return clipShot(cdp, after, clip);
      }
      // Awaited before the next capture: two captures of one page never overlap (captureGate.ts).
      await guessed?.catch(() => undefined);
      return clipShot(cdp, layout, clip);
    };
    return oneCaptureAtATime(page, narrowed(deadline, CROP_CAPTURE_LIMIT_MS), "capturing the target's crop", capture);
  });
}

/** Where the viewport lies in the document, and at what zoom: what a clip of it is in the document's pixels. */
type Layout = { pageX: number; pageY: number; zoom: number; deviceScale: number };

/** Each page's layout as its last capture's metrics gave it. */
const lastLayout = new WeakMap<Page, Layout>();

async function layoutNow(cdp: CDPSession): Promise<Layout> {
  return layoutOf((await cdp.send('Page.getLayoutMetrics')) as unknown as LayoutMetrics);
}

function layoutOf(metrics: LayoutMetrics): Layout {
  // As Playwright computes a clip: the CSS visual viewport where the protocol gives it.
  const view = metrics.cssVisualViewport ?? metrics.visualViewport;
  const zoom = metrics.visualViewport.scale || 1;
  const deviceScale = metrics.cssContentSize?.width ? metrics.contentSize.width / metrics.cssContentSize.width || 1 : 1;
  return { pageX: view.pageX, pageY: view.pageY, zoom, deviceScale };
}

function sameLayout(a: Layout, b: Layout): boolean {
  return a.pageX === b.pageX && a.pageY === b.pageY && a.zoom === b.zoom && a.deviceScale === b.deviceScale;
}

/** The viewport's `clip` (CSS pixels) under `layout`, captured at CSS scale. */
async function clipShot(cdp: CDPSession, layout: Layout, clip: Box): Promise<Buffer> {
  const { pageX, pageY, zoom, deviceScale } = layout;
  const documentClip = { x: pageX + clip.x, y: pageY + clip.y, width: Math.ceil(clip.width / zoom), height: Math.ceil(clip.height / zoom), scale: zoom / deviceScale };
  const shot = await cdp.send('Page.captureScreenshot', { format: 'png', clip: documentClip, captureBeyondViewport: false });
  return Buffer.from(shot.data, 'base64');
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

import type { Page } from 'playwright';
import { captureCrop, captureFrame, cropOfFrame, type ViewportFrame } from '../checks/cropCapture.js';
import { frameStill } from '../checks/frameStill.js';
import type { Box } from '../checks/geometry.js';
import type { Deadline } from '../progress/deadline.js';
import type { TrajectoryNode } from '../trajectory/trajectoryNode.js';

/**
 * A screenshot of the whole viewport asked for the moment a cached step's action was done, while
 * the page settles: the next step's crop is cut from it instead of waiting for a frame after the
 * settling, when nothing that changes pixels has happened since it was asked for (frameStill.ts).
 * A screenshot waits for the page's next frame (16 ms or more here); settling takes about as long,
 * so the two overlap. Written down in docs/checks.md, "A crop cut from the frame after the action".
 */
export type AfterActionFrame = { page: Page; frame: Promise<ViewportFrame | undefined> };

/**
 * Whether a step after `next` may want the frame: one that compares a crop of its own. A key or
 * text into the element the step just clicked answers its crop from that step's (cropProof.ts),
 * and a frame nobody cuts from costs the page a capture.
 */
export function frameWanted(next: readonly TrajectoryNode[]): boolean {
  return next.some((node) => node.cropHash !== null && node.box !== null && node.action.type !== 'type' && node.action.type !== 'keypress');
}

/** Starts the frame after an action (it does not wait for it). */
export function frameAfterAction(page: Page, deadline: Deadline): AfterActionFrame {
  return { page, frame: captureFrame(page, deadline) };
}

/**
 * The crop at `clip` around `box` (where the target is expected): cut from the frame after the
 * last action when it still shows the page there, else captured now.
 */
export async function cropAfterAction(page: Page, after: AfterActionFrame | undefined, clip: Box, box: Box, deadline: Deadline): Promise<Buffer> {
  const frame = after?.page === page ? await after.frame : undefined;
  if (frame && (await frameStill(page, frame.requestedAt, box))) {
    const cut = await cropOfFrame(frame, clip);
    if (cut) return cut;
  }
  return captureCrop(page, clip, deadline);
}

import { decodeAhead } from '../checks/cropPixels.js';
import type { Box } from '../checks/geometry.js';
import { paramRegions } from '../checks/paramRegions.js';
import { paintBoxes, secretRegions } from '../checks/secretMask.js';
import { captureCrop, matchCropStable } from '../checks/cropCapture.js';
import { compareCrops, insideViewport } from '../checks/visual.js';
import { firstLineOf } from '../errors/messageOf.js';
import type { Deadline } from '../progress/deadline.js';
import type { TrajectoryNode } from '../trajectory/trajectoryNode.js';
import type { CheckEnvironment } from './checkTypes.js';

// The visual check of a cached step: the crop around its target, as recorded and as it is now (see preCheck.ts).

/** The crop minus the target's own box: what stood around it. */
function surroundings(rect: Box, box: Box): Box[] {
  const inner = { x: Math.round(-rect.x), y: Math.round(-rect.y), width: Math.round(box.width), height: Math.round(box.height) };
  const right = inner.x + inner.width;
  const bottom = inner.y + inner.height;
  return [
    { x: 0, y: 0, width: rect.width, height: Math.max(0, inner.y) },
    { x: 0, y: bottom, width: rect.width, height: Math.max(0, rect.height - bottom) },
    { x: 0, y: inner.y, width: Math.max(0, inner.x), height: inner.height },
    { x: right, y: inner.y, width: Math.max(0, rect.width - right), height: inner.height },
  ].filter((mask) => mask.width > 0 && mask.height > 0);
}

/** A crop taken while the target was being read, at the clip the recorded box gives. */
export type EarlyCrop = { clip: Box; shot: Promise<Buffer | undefined> };

/** The crop's clip for a target box: the recorded crop's rectangle, moved with the box. */
function clipFor(rect: Box, box: Box): Box {
  return { x: Math.round(box.x + rect.x), y: Math.round(box.y + rect.y), width: rect.width, height: rect.height };
}

function insideView(clip: Box, viewport: { width: number; height: number }): boolean {
  return clip.x >= 0 && clip.y >= 0 && clip.x + clip.width <= viewport.width && clip.y + clip.height <= viewport.height;
}

/**
 * Starts the crop where the target is expected, to be compared where the target is found
 * (visualCheck): the screenshot waits for a frame while the target's read goes on. A target found
 * elsewhere is captured again there. A capture that fails is no crop; one not used is dropped.
 *
 * Expected: the recorded box, moved as far as the last step's target had moved from its own (a
 * banner or a longer line above the form pushes every field below it alike: guessing the recorded
 * place there cost every click a second capture, measured on the catalogue's 4 px). Where the
 * moved clip leaves the viewport, the recorded place is the guess.
 */
export function earlyCrop(env: CheckEnvironment, node: TrajectoryNode): EarlyCrop | undefined {
  if (!node.cropHash || !node.cropRect || !node.box) return undefined;
  const viewport = env.page.viewportSize() ?? { width: 1280, height: 720 };
  const recorded = clipFor(node.cropRect, node.box);
  const moved = env.offset && (env.offset.dx !== 0 || env.offset.dy !== 0) ? clipFor(node.cropRect, { ...node.box, x: node.box.x + env.offset.dx, y: node.box.y + env.offset.dy }) : undefined;
  const clip = [moved, recorded].find((candidate) => candidate !== undefined && insideView(candidate, viewport));
  if (!clip) return undefined;
  return { clip, shot: captureCrop(env.page, clip, env.deadline).catch(() => undefined) };
}

export async function visualCheck(env: CheckEnvironment, node: TrajectoryNode, liveBox: Box, recordedCrop: Buffer, patience: Deadline, early?: EarlyCrop) {
  let recorded = recordedCrop;
  // Its pixels are decoded while the live crop is on its way.
  decodeAhead(recorded);
  const rect = node.cropRect!;
  // The target itself is compared, not what stands beside it: which element it is, the identity
  // and the hit test at the point say; neighbours move for no reason (a field above that jitters,
  // another row picked by this run's value, a target that moved).
  let masks = [...node.masks, ...surroundings(rect, liveBox)];
  const viewport = env.page.viewportSize() ?? { width: 1280, height: 720 };
  let clip = clipFor(rect, liveBox);
  if (!insideView(clip, viewport)) {
    // A target at the viewport's edge that moved a little: the part of it inside is compared (which element it is, the identity said).
    const inside = await insideViewport(clip, liveBox, recorded, masks, viewport);
    if (!inside) return { reason: 'the target is mostly outside the viewport', expected: undefined, actual: undefined, diff: undefined };
    ({ clip, recorded, masks } = inside);
  }
  let matched: Awaited<ReturnType<typeof matchCropStable>>;
  try {
    // The early crop shows the page at the moment of the read, where the read found the target
    // (a target found elsewhere, a row that moved, a field pushed down, is captured again there).
    const first = early && sameClip(early.clip, clip) ? await early.shot : undefined;
    matched = await matchCropStable(env.page, clip, recorded, masks, patience, env.deadline, first);
  } catch (error) {
    // A capture that fails (the page is navigating) is a check that did not pass yet, not a crash.
    return { reason: `the page could not be captured (${firstLineOf(error)})`, uncaptured: true, expected: undefined, actual: undefined, diff: undefined };
  }
  const { mismatch, actual } = matched;
  if (!mismatch) return { crop: await withoutSecrets(env, actual, clip) };
  const expected = recorded;
  // New values may render where the recording had none: mask where this run's values show, too.
  if (env.params.size > 0) {
    const extra = await paramRegions(env.page, env.params.shownForms(), clip);
    if (extra.length > 0 && !(await compareCrops(recorded, actual, [...masks, ...extra]))) return { crop: await withoutSecrets(env, actual, clip) };
  }
  // The live crop goes into the divergence, so it is shown to the caller: paint over secrets as a recorded crop is.
  // So is the diff, drawn from the unpainted crop: a secret that moved into the box shows in its red.
  const hidden = await secretRegions(env.page, env.params, clip);
  if (hidden.length === 0) return { ...mismatch, expected };
  return { ...mismatch, expected, actual: await paintBoxes(mismatch.actual, hidden), ...(mismatch.diff ? { diff: await paintBoxes(mismatch.diff, hidden) } : {}) };
}

function sameClip(a: Box, b: Box): boolean {
  return a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
}

/**
 * A passing live crop, kept for the report: where the run has secrets, whatever shows one is
 * painted over. Without secrets nothing is looked up (a password field shows only dots), so a
 * plain replay pays nothing for it.
 */
async function withoutSecrets(env: CheckEnvironment, crop: Buffer, clip: Box): Promise<Buffer | undefined> {
  if (env.params.secretValues().length === 0) return crop;
  // A page that cannot be searched for its secrets right now gives no picture, never an unpainted one.
  const hidden = await secretRegions(env.page, env.params, clip, { strict: true }).catch(() => undefined);
  return hidden ? paintBoxes(crop, hidden) : undefined;
}


import { paintBoxes, secretRegions } from '../checks/secretMask.js';
import { diffImage, screenshotCrop } from '../checks/visual.js';
import type { CheckEnvironment } from './preCheck.js';
import type { Divergence } from './runResult.js';
import type { TrajectoryNode } from '../trajectory/trajectoryNode.js';

type Evidence = Pick<Divergence, 'expected' | 'actual' | 'diff'>;

/**
 * Images for a divergence the visual check never reached (the target was renamed, covered by a
 * popup, gone): the recorded crop, the live page where it was recorded, and their diff, so a
 * reviewer sees what changed. One clipped screenshot, taken only after a step has diverged; a
 * capture that fails leaves the recorded crop alone rather than failing the run.
 */
export async function evidenceAtRecordedPlace(env: CheckEnvironment, node: TrajectoryNode): Promise<Evidence> {
  if (!node.cropHash || !node.cropRect || !node.box) return {};
  const expected = await env.blob(node.cropHash);
  if (!expected) return {};
  const viewport = env.page.viewportSize();
  const clip = { x: Math.round(node.box.x + node.cropRect.x), y: Math.round(node.box.y + node.cropRect.y), width: node.cropRect.width, height: node.cropRect.height };
  const inside = viewport && clip.x >= 0 && clip.y >= 0 && clip.x + clip.width <= viewport.width && clip.y + clip.height <= viewport.height;
  if (!inside || env.page.isClosed()) return { expected };
  try {
    let actual = await screenshotCrop(env.page, clip, env.deadline);
    // Shown to the caller: secrets painted over, as in every crop rote keeps.
    const hidden = await secretRegions(env.page, env.params, clip);
    if (hidden.length > 0) actual = await paintBoxes(actual, hidden);
    const diff = await diffImage(expected, actual, node.masks);
    return diff ? { expected, actual, diff } : { expected, actual };
  } catch {
    return { expected };
  }
}

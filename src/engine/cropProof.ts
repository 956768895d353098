import type { Action } from '../actions/action.js';
import type { Target } from '../checks/fingerprint.js';
import type { Box } from '../checks/geometry.js';
import { sameBox } from '../checks/lookalikes.js';

/**
 * The element a cached step's crop was compared on, as it was then: what lets the next step's
 * crop check be answered without a new screenshot (see `leanOnCrop`).
 */
export type LookedTarget = {
  /** The element (CDP backend node id: one element of one document). */
  domNode: number;
  /** Its box when its crop was compared. */
  box: Box;
  /** New documents the window had loaded then: a node id means nothing in another document. */
  documents: number;
  window: number;
  /** The step (numbered from 1) whose crop was compared. */
  step: number;
  /** That crop, as kept for the report (secrets painted over): the picture of a step that leans on it. */
  crop?: Buffer;
};

/** A step that may have its crop check answered by the step before: no early crop is taken for it (preCheck.ts). */
export function mayLeanOnCrop(looked: LookedTarget | undefined, action: Action): boolean {
  return looked !== undefined && (action.type === 'type' || action.type === 'keypress');
}

/**
 * A crop check answered by the step before, written down as docs/checks.md states it. A step that
 * types or presses a key into the element the step just before acted on, and whose crop that step
 * compared, is not captured again when all of these hold:
 * - it is the same element (the same DOM node of the same document: no new document since), in
 *   the same window;
 * - its box has not moved;
 * - nothing stands over the middle of its box now (the hit test finds the element itself): a popup
 *   that the click opened over the field fails this and is compared as usual;
 * - the target check of this step passed (the focused element has the recorded role, name, tag,
 *   identity and look-alikes), as it must for any step.
 * Typing and keys go to the focused element, whatever stands over it: the crop of such a step says
 * how the field looks, never which field the keys reach, and how it looked was compared a moment
 * ago. A click, whose point decides where it lands, always gets its own crop.
 */
export function leanOnCrop(looked: LookedTarget | undefined, action: Action, live: Target, now: { documents: number; window: number }): LookedTarget | undefined {
  if (!looked || (action.type !== 'type' && action.type !== 'keypress')) return undefined;
  if (live.domNode === undefined || live.domNode !== looked.domNode) return undefined;
  if (now.documents !== looked.documents || now.window !== looked.window) return undefined;
  if (!sameBox(live.box, looked.box) || live.uncovered !== true) return undefined;
  return looked;
}

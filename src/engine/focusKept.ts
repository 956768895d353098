import type { JSHandle, Page } from 'playwright';
import { PICK_ELEMENT } from '../checks/target.js';

/**
 * The element typing goes to (through same-origin frames and open shadow roots), as the pre-check
 * picked it; null when that is the page itself (no element, the body, the root). So one round
 * trip both marks it and says whether it is the page (nodeType, not instanceof: a field inside a
 * frame is an Element of the frame's window).
 */
const FOCUSED = `(function () {
  var el = ${PICK_ELEMENT}('focus', 0, 0);
  return el && el.nodeType === 1 && el !== el.ownerDocument.body && el !== el.ownerDocument.documentElement ? el : null;
})()`;

/** Marks the focused element before a cached step types, so that afterwards rote can tell whether the text can have arrived. */
export async function markFocus(page: Page): Promise<JSHandle | undefined> {
  return page.evaluateHandle(FOCUSED).catch(() => undefined);
}

/**
 * Whether the focused element marked before typing can have taken the text: it is still in its
 * document, and the focus did not fall to the page itself. A page that replaced the field while
 * the keys went (a re-render, a clone) leaves the text nowhere, and the run must not go on as if
 * it had arrived. Focus moved on to another field (an auto-advancing date) is not a loss.
 */
export async function focusKept(mark: JSHandle): Promise<boolean> {
  try {
    // The focus was on the page itself: no field to lose.
    if (mark.asElement() === null) return true;
    return await mark.evaluate((el) => {
      const active = (el as Element).ownerDocument.activeElement;
      return el.isConnected && active !== null && active !== el.ownerDocument.body;
    });
  } catch {
    // The page went away with the element: a navigation the next step's checks will see.
    return true;
  } finally {
    void mark.dispose().catch(() => undefined);
  }
}

/**
 * Whether the focus marked before typing is nowhere a text can go: no element, or the page
 * itself. A field replaced after the step's checks (a re-render, a clone) leaves it there, and
 * the keys would go nowhere while the run went on as if they had arrived. Known from the mark
 * itself, with no round trip.
 */
export function focusOnPageItself(mark: JSHandle | undefined): boolean {
  return mark !== undefined && mark.asElement() === null;
}

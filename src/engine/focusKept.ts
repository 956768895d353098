import type { Page } from 'playwright';
import { cdpSession } from '../checks/cdp.js';
import { raceDeadline, type Deadline } from '../progress/deadline.js';
import { KEPT_READ_JS, PICK_ELEMENT } from '../checks/target.js';

/**
 * The element typing goes to (through same-origin frames and open shadow roots), as the pre-check
 * picked it; null when that is the page itself (no element, the body, the root); ELSEWHERE when it
 * is another element than the one the step's checks read (kept beside the change log, target.ts),
 * where that read is still kept. So one round trip both marks it and says whether it is the page
 * or another field (nodeType, not instanceof: a field inside a frame is an Element of the frame's window).
 */
const ELSEWHERE = '__roteFocusElsewhere';
const focused = (read: string | undefined) => `(function (read) {
  ${KEPT_READ_JS}
  var el = ${PICK_ELEMENT}('focus', 0, 0);
  if (!el || el.nodeType !== 1 || el === el.ownerDocument.body || el === el.ownerDocument.documentElement) return null;
  var kept = keptRead(read);
  return kept && kept.el !== el ? ${JSON.stringify(ELSEWHERE)} : el;
})(${JSON.stringify(read ?? null)})`;

/** Runs with `this` = the marked element: it can have taken the text (still in its document, the focus not fallen to the page). */
const KEPT = `function () { var active = this.ownerDocument.activeElement; return this.isConnected && active !== null && active !== this.ownerDocument.body; }`;

/** The focused element marked before a cached step types (see `markFocus`). */
export type FocusMark = {
  /**
   * The focus is nowhere a text can go: no element, or the page itself. A field replaced after the
   * step's checks (a re-render, a clone) leaves it there, and the keys would go nowhere while the
   * run went on as if they had arrived. Known from the mark itself, with no round trip.
   */
  readonly pageItself: boolean;
  /**
   * The focus is on another element than the one the step's checks read: the page moved it since
   * (a timer handing it on). The keys would go to an element no check looked at.
   */
  readonly elsewhere: boolean;
  /**
   * Whether the marked element can have taken the text: it is still in its document, and the focus
   * did not fall to the page itself. A page that replaced the field while the keys went (a
   * re-render, a clone) leaves the text nowhere, and the run must not go on as if it had arrived.
   * Focus moved on to another field (an auto-advancing date) is not a loss. Lets the mark go.
   */
  kept(): Promise<boolean>;
  /** Lets the mark go unasked. */
  dispose(): void;
};

let marks = 0;

/**
 * Marks the focused element before a cached step types, so that afterwards rote can tell whether
 * the text can have arrived: one round trip on rote's own DevTools session (a Playwright handle
 * costs a second one, for its preview), in an object group of its own that `kept` or `dispose` releases.
 */
export async function markFocus(page: Page, deadline: Deadline, read?: string): Promise<FocusMark | undefined> {
  // A page that does not answer by the run's deadline (a dialog holding it) gives no mark; one that answers later is let go.
  const marking = takeMark(page, deadline, read);
  let late = false;
  void marking.then((mark) => late && mark?.dispose());
  return raceDeadline(deadline, marking, () => {
    late = true;
    return undefined;
  });
}

async function takeMark(page: Page, deadline: Deadline, read: string | undefined): Promise<FocusMark | undefined> {
  try {
    const cdp = await cdpSession(page);
    const objectGroup = `rote-focus-${++marks}`;
    const release = () => void cdp.send('Runtime.releaseObjectGroup', { objectGroup }).catch(() => undefined);
    const marked = await cdp.send('Runtime.evaluate', { expression: focused(read), objectGroup, returnByValue: false });
    const objectId = marked.result.objectId;
    if (marked.exceptionDetails) {
      release();
      return undefined;
    }
    if (marked.result.value === ELSEWHERE) {
      release();
      return { pageItself: false, elsewhere: true, kept: async () => true, dispose: () => undefined };
    }
    if (!objectId || marked.result.subtype === 'null') {
      release();
      return { pageItself: true, elsewhere: false, kept: async () => true, dispose: () => undefined };
    }
    return {
      pageItself: false,
      elsewhere: false,
      kept: async () => {
        try {
          // Past the run's deadline the run ends anyway, failed: nothing is claimed of the text then.
          const answer = await raceDeadline(deadline, cdp.send('Runtime.callFunctionOn', { objectId, functionDeclaration: KEPT, returnByValue: true }), () => undefined);
          if (!answer) return true;
          // A page that went away with the element answers nothing: a navigation the next step's checks will see.
          return answer.exceptionDetails !== undefined || answer.result.value === true;
        } catch {
          return true;
        } finally {
          release();
        }
      },
      dispose: release,
    };
  } catch {
    return undefined;
  }
}

import type { JSHandle, Page } from 'playwright';

/**
 * The element typing goes to, through same-origin frames and open shadow roots: marked before a
 * cached step types, so that afterwards rote can tell whether the text can have arrived.
 */
const DEEP_FOCUS = `(() => {
  var el = document.activeElement;
  for (var depth = 0; el && depth < 8 && /^(IFRAME|FRAME)$/.test(el.tagName); depth++) {
    var doc = null;
    try { doc = el.contentDocument; } catch (e) { doc = null; }
    if (!doc) break;
    el = doc.activeElement;
  }
  while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
  return el;
})()`;

export async function markFocus(page: Page): Promise<JSHandle | undefined> {
  return page.evaluateHandle(DEEP_FOCUS).catch(() => undefined);
}

/**
 * Whether the focused element marked before typing can have taken the text: it is still in its
 * document, and the focus did not fall to the page itself. A page that replaced the field while
 * the keys went (a re-render, a clone) leaves the text nowhere, and the run must not go on as if
 * it had arrived. Focus moved on to another field (an auto-advancing date) is not a loss.
 */
export async function focusKept(mark: JSHandle): Promise<boolean> {
  try {
    return await mark.evaluate((el) => {
      if (!el || !(el instanceof Element) || el === el.ownerDocument.body) return true;
      const active = el.ownerDocument.activeElement;
      return el.isConnected && active !== null && active !== el.ownerDocument.body;
    });
  } catch {
    // The page went away with the element: a navigation the next step's checks will see.
    return true;
  } finally {
    void mark.dispose().catch(() => undefined);
  }
}

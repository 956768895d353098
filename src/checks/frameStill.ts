import type { Page } from 'playwright';
import type { Box } from './geometry.js';

/**
 * In-page JavaScript: why a screenshot requested at `since` (the runner's clock, which is the
 * page's) may no longer show the page inside `box`, or null when nothing says it could. Read after
 * the screenshot came back, so whatever happened after its frame was drawn happened after `since`
 * too and is seen here. What is looked for, each a way pixels change:
 * - the change log (pageChanges.ts): any DOM change at all, or a scroll, a resource loaded, a
 *   resize or a focus move, from `since` on; a log begun after `since` (a new document) proves nothing;
 * - animations and transitions running or about to, on an element over the box (they change
 *   pixels with no DOM change; one that is not over the box now is not in a fresh screenshot's
 *   box either);
 * - fonts still loading;
 * - in the box: a canvas, video, frame, embed or object (they draw with no trace in this
 *   document's DOM), or a custom element or shadow host (a shadow tree's changes are not logged).
 * A reason is a refusal to use the screenshot, never a failed check: a fresh one is taken instead.
 */
const FRAME_STILL_JS = `function (since, box) {
  var state = this;
  if (state.installedAt >= since) return 'no change log from before the screenshot';
  var last = state.events[state.events.length - 1];
  if (last && last.t >= since) return 'the DOM changed';
  if (state.movedAt >= since) return 'the page scrolled, loaded, resized or moved the focus';
  if (document.fonts && document.fonts.status !== 'loaded') return 'fonts are loading';
  var overlaps = function (el) {
    var r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && r.right > box.x && r.left < box.x + box.width && r.bottom > box.y && r.top < box.y + box.height;
  };
  var animations = document.getAnimations ? document.getAnimations() : [];
  for (var i = 0; i < animations.length; i++) {
    var a = animations[i], target = a.effect && a.effect.target;
    if ((a.playState === 'running' || a.pending) && (!target || overlaps(target))) return 'an animation is running over the target';
  }
  var drawn = document.querySelectorAll('canvas, video, iframe, frame, embed, object');
  for (var j = 0; j < drawn.length; j++) if (overlaps(drawn[j])) return 'a ' + drawn[j].tagName.toLowerCase() + ' is over the target';
  var seen = new Set();
  for (var gx = 0; gx < 3; gx++) for (var gy = 0; gy < 3; gy++) {
    var stack = document.elementsFromPoint(box.x + box.width * (gx + 0.5) / 3, box.y + box.height * (gy + 0.5) / 3);
    for (var k = 0; k < stack.length; k++) {
      var el = stack[k];
      if (seen.has(el)) continue;
      seen.add(el);
      if (el.shadowRoot || el.tagName.indexOf('-') >= 0) return 'a shadow tree is over the target';
    }
  }
  return null;
}`;

/**
 * The question is kept on the document's change log, compiled once: asked with new arguments in
 * its source every time, it would be compiled every time (2.5 ms against 1 ms, measured on the intake form).
 */
const INSTALL_JS = `(function () {
  var state = window.__roteChangeLog;
  if (state && !state.frameStill) state.frameStill = ${FRAME_STILL_JS};
})()`;

const ask = (since: number, box: Box) =>
  `(function () { var state = window.__roteChangeLog; if (!state) return 'no change log'; return state.frameStill ? state.frameStill(${since}, ${JSON.stringify(box)}) : 'not installed'; })()`;

/**
 * Whether a screenshot requested at `since` still shows the page inside `box` (CSS pixels of the
 * viewport): nothing that changes pixels happened from `since` on. Call it after the screenshot
 * came back. A page that cannot answer (it is navigating) says no.
 */
export async function frameStill(page: Page, since: number, box: Box): Promise<boolean> {
  const question = ask(Number(since), { x: Number(box.x), y: Number(box.y), width: Number(box.width), height: Number(box.height) });
  let reason = await page.evaluate(question).catch(() => 'the page did not answer');
  if (reason === 'not installed') {
    await page.evaluate(INSTALL_JS).catch(() => undefined);
    reason = await page.evaluate(question).catch(() => 'the page did not answer');
  }
  return reason === null;
}

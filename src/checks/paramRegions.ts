import type { Page } from 'playwright';
import { intersect, roundBox, type Box } from './geometry.js';

/** Runs in the page; a string so no bundler can rewrite it (see perform.ts). */
const FIND_REGIONS = `(function (wanted, within) {
  var found = [];
  function overlaps(r) { return r.width > 0 && r.height > 0 && r.right > within.x && r.x < within.x + within.width && r.bottom > within.y && r.y < within.y + within.height; }
  function shows(text) { return wanted.some(function (value) { return value.length < 2 ? text.trim() === value : text.indexOf(value) >= 0; }); }
  function add(r) { found.push({ x: r.x, y: r.y, width: r.width, height: r.height }); }
  var controls = document.querySelectorAll('input, textarea, select');
  for (var i = 0; i < controls.length; i++) {
    var element = controls[i];
    var text = element.tagName === 'SELECT' ? (element.selectedOptions[0] ? element.selectedOptions[0].textContent || '' : '') : (element.type === 'password' ? '' : element.value);
    var rect = element.getBoundingClientRect();
    // A select holding the value under another label ("CA" shown as "California") shows it too.
    var held = element.tagName === 'SELECT' && element.value ? shows(element.value) : false;
    if ((text && shows(text) || held) && overlaps(rect)) add(rect);
  }
  var walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  var range = document.createRange();
  for (var node = walker.nextNode(); node; node = walker.nextNode()) {
    var content = node.textContent || '';
    if (!content.trim() || !shows(content)) continue;
    range.selectNodeContents(node);
    var rects = range.getClientRects();
    for (var j = 0; j < rects.length; j++) if (overlaps(rects[j])) add(rects[j]);
  }
  return found;
})`;

/**
 * Boxes inside `within` (viewport CSS pixels) where the page renders one of `values`: form
 * controls holding a value and text nodes containing it. These are masked in visual checks
 * so a replay with new values is not a false divergence; nothing else is masked.
 */
export async function paramRegions(page: Page, values: readonly string[], within: Box, options: { strict?: boolean } = {}): Promise<Box[]> {
  // Very short values ("1", "a") would mask half a page; they are only masked where a control holds exactly them.
  const wanted = [...new Set(values.filter((value) => value.trim().length > 0))];
  if (wanted.length === 0) return [];
  // Strict: a lookup that fails (a page mid-navigation) throws, for a picture that is kept only if it is known clean.
  const found = page.evaluate(`${FIND_REGIONS}(${JSON.stringify(wanted)}, ${JSON.stringify(within)})`);
  const boxes = (await (options.strict ? found : found.catch(() => []))) as Box[];
  return boxes.flatMap((box) => {
    const inside = intersect(box, within);
    return inside ? [roundBox({ ...inside, x: inside.x - within.x, y: inside.y - within.y })] : [];
  });
}

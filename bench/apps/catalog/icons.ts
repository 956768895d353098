/**
 * The shelf page's toolbar icons: inline SVG, no text, no title, nothing but the drawing. The
 * inner markup is written exactly as the browser serializes it (`<rect ...></rect>`, attributes
 * in source order, no whitespace), so an agent can compare an icon's `innerHTML` with it: the
 * shape is the only thing that tells the buttons apart.
 */

export type IconName = 'save' | 'print' | 'delete';

/** A floppy disk. */
const SAVE =
  '<rect x="2" y="2" width="16" height="16" rx="1" fill="#2b4c7e"></rect>' +
  '<rect x="5" y="2" width="9" height="6" fill="#dfe6f0"></rect>' +
  '<rect x="11" y="3" width="2" height="4" fill="#2b4c7e"></rect>' +
  '<rect x="5" y="11" width="10" height="6" fill="#ffffff"></rect>';

/** A printer with a sheet in it. */
const PRINT =
  '<rect x="5" y="2" width="10" height="5" fill="#ffffff" stroke="#444444"></rect>' +
  '<rect x="2" y="7" width="16" height="7" rx="1" fill="#5a5a5a"></rect>' +
  '<rect x="5" y="12" width="10" height="6" fill="#ffffff" stroke="#444444"></rect>' +
  '<rect x="14" y="9" width="2" height="1" fill="#9fe09f"></rect>';

/** A trash can. */
const DELETE =
  '<rect x="3" y="4" width="14" height="2" fill="#8a1c1c"></rect>' +
  '<rect x="8" y="2" width="4" height="2" fill="#8a1c1c"></rect>' +
  '<path d="M5 7h10l-1 11H6z" fill="#b03030"></path>' +
  '<path d="M8 9v7M10 9v7M12 9v7" stroke="#ffffff" stroke-width="1"></path>';

/** Each icon's inner SVG markup. */
export const ICON_MARKUP: Record<IconName, string> = { save: SAVE, print: PRINT, delete: DELETE };

/** The toolbar's order on an unperturbed page. */
export const ICON_ORDER: readonly IconName[] = ['save', 'print', 'delete'];

/** The whole <svg> element of an icon, 20x20. */
export function iconSvg(name: IconName): string {
  return `<svg width="20" height="20" viewBox="0 0 20 20" style="display: block;">${ICON_MARKUP[name]}</svg>`;
}

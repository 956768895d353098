import type { Box } from './geometry.js';
import type { LiveIdentity } from './identity.js';

/**
 * Who an action lands on, in the browser's own accessibility terms: the role and accessible
 * name Chromium computes, plus the tag and input type. Two targets are the same element
 * for rote when their fingerprints are equal.
 */
export type Fingerprint = {
  role: string;
  name: string;
  tag: string;
  inputType: string | null;
};

/** A live element under a point or holding the focus, as captured before an action. */
export type Target = {
  fingerprint: Fingerprint;
  /** Viewport box in CSS pixels. */
  box: Box;
  /** checked state of a checkbox or radio, else null. */
  checked: boolean | null;
  /** Whether a text-entry control currently holds any text (never its value: it may be secret). */
  hasText: boolean;
  /** Disabled, as the accessibility tree says: a disabled target is never acted on. */
  disabled: boolean;
  /** A control whose inside shows data (a text field, a select), not what the control is. */
  showsValue: boolean;
  /** What a person reads to tell it from its look-alikes, and its stable attributes ({} when not asked for). */
  identity: LiveIdentity;
  /** The words the element shows itself (at most FACET_LIMIT characters): what a bare clickable div is known by. */
  ownText: string;
  /** The role and name are the element's own, not those of the ancestor it speaks through (a bare icon in a cell). */
  roleOwn: boolean;
  /** The element's id in its document (CDP's backend node id): two reads of one document name one element by it. */
  domNode?: number;
  /**
   * Nothing stands over the middle of its box: the element (or something inside it) is what a
   * click there would hit. Null where that cannot be told from the top page (inside a frame or a
   * shadow root), and for an element with no box.
   */
  uncovered?: boolean | null;
  /**
   * Which read of the page found it: the page keeps the element under this key beside its change
   * log (target.ts), so a last look can ask for that very element in one evaluation (lastLook.ts).
   * Absent where the page has no change log to keep it in.
   */
  read?: string;
};

/** The fingerprint is what identifies a target; box, state and context are evidence around it. */
export function sameFingerprint(a: Fingerprint, b: Fingerprint): boolean {
  return a.role === b.role && a.name === b.name && a.tag === b.tag && a.inputType === b.inputType;
}

export function describeFingerprint(fingerprint: Fingerprint): string {
  const kind = fingerprint.inputType ? `${fingerprint.role}, ${fingerprint.tag}[type=${fingerprint.inputType}]` : `${fingerprint.role}, ${fingerprint.tag}`;
  return `${JSON.stringify(fingerprint.name)} (${kind})`;
}

/** ARIA roles Playwright's getByRole can count, so uniqueness can be measured for them. */
export const COUNTABLE_ROLES = new Set([
  'button', 'checkbox', 'combobox', 'link', 'listbox', 'menuitem', 'menuitemcheckbox', 'menuitemradio',
  'option', 'radio', 'searchbox', 'slider', 'spinbutton', 'switch', 'tab', 'textbox', 'treeitem', 'gridcell', 'row', 'cell',
  'columnheader', 'rowheader', 'heading', 'img', 'dialog', 'alertdialog',
]);

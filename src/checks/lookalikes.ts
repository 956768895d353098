import type { Frame, Locator, Page } from 'playwright';
import { foldedNamePattern } from '../params/fold.js';
import { withinDeadline, type Deadline } from '../progress/deadline.js';
import { COUNTABLE_ROLES, sameFingerprint, type Fingerprint, type Target } from './fingerprint.js';
import type { Box } from './geometry.js';
import { facetReading, IDENTITY_JS, type LiveIdentity } from './identity.js';
import { evaluateAllKit, kitFunction } from './pageKit.js';
import { FRAME_OFFSET_JS } from './target.js';

type AriaRole = Parameters<Page['getByRole']>[0];

/** A visible element an action could take for the target: its box and what tells it apart. */
export type Lookalike = { box: Box; identity: LiveIdentity };

/**
 * Beyond this many look-alikes nothing is measured: the target is not identifiable by its kind
 * (every div of a page), and its step is not replayed.
 */
const MAX_LOOKALIKES = 2000;

/**
 * Runs in the page on the located elements: the visible ones of the target's tag and input type
 * (and own words, for an element with no role of its own), in document order, with their boxes
 * and identities. Source text, kept by the document once sent (pageKit.ts).
 */
type Kind = { limit: number; tag: string; inputType: string | null; text: string | null; identity: boolean; cells: boolean };
const DESCRIBE_ALL = kitFunction(
  'describe-lookalikes',
  `function (elements, kind) {
  ${IDENTITY_JS}
  ${FRAME_OFFSET_JS}
  var reading = function (s) { return s.replace(/\\s+/g, ' ').trim().replace(/[\\s:*]+$/, '').toLowerCase(); };
  // In a frame, boxes are moved into the top page's viewport, as the target's are (target.ts). A
  // frame inside another origin's page cannot be placed, and its targets are never replayed anyway.
  var offset = frameOffset(window);
  if (!offset) return [];
  var found = [];
  for (var i = 0; i < elements.length && found.length <= kind.limit; i++) {
    var el = elements[i];
    if (el.tagName.toLowerCase() !== kind.tag) continue;
    if (kind.inputType !== null && (el.getAttribute('type') || 'text').toLowerCase() !== kind.inputType) continue;
    if (kind.text !== null && reading(ownText(el)) !== kind.text) continue;
    if (!isVisible(el)) continue;
    var r = el.getBoundingClientRect();
    found.push({ box: { x: r.x + offset.x, y: r.y + offset.y, width: r.width, height: r.height }, identity: kind.identity ? identityOf(el, kind.cells) : {} });
  }
  return found;
}`,
);

/**
 * The elements that share the target's kind: its role and accessible name as Playwright's
 * getByRole computes them (empty names included, so unnamed fields count each other), or, for a
 * target whose role is its ancestor's or one getByRole cannot query, its tag and the words it
 * shows itself. Tag and input type are then required in the page, as the fingerprint compares them.
 * `folded` matches the name case and punctuation aside (a name that came from a parameter).
 */
function kindLocator(page: Page | Frame, fingerprint: Fingerprint, byRole: boolean, folded: boolean): Locator {
  if (byRole && COUNTABLE_ROLES.has(fingerprint.role)) {
    const name = folded && fingerprint.name !== '' ? foldedNamePattern(fingerprint.name) : fingerprint.name;
    return page.getByRole(fingerprint.role as AriaRole, { name, exact: true });
  }
  // Input types are filtered in the page: an <input> with no type attribute is a text field.
  return page.locator(/^[a-z][a-z0-9-]*$/.test(fingerprint.tag) ? fingerprint.tag : '*');
}

export type LookalikeQuery = {
  /** The role and name are the target's own (else its tag and `text` say what it is). */
  byRole: boolean;
  folded?: boolean;
  /** For a target with no role of its own: the words it shows (its look-alikes show the same). */
  text?: string;
  /** Whether each look-alike's identity is needed (else only their number and boxes). */
  identities?: boolean;
  /** Whether each identity needs its row's other cells (a recorded rowCell): a walk of every cell of every row. */
  cells?: boolean;
  deadline: Deadline;
};

/**
 * Whether a target's look-alikes are found by its role and accessible name (else by its tag and
 * the words it shows: an element with no role of its own, or one getByRole cannot query).
 */
export function countedByRole(fingerprint: Fingerprint, roleOwn: boolean): boolean {
  return roleOwn && COUNTABLE_ROLES.has(fingerprint.role);
}

/**
 * The visible look-alikes of a target (itself included), in document order; null when they
 * cannot be measured (too many, the page is navigating, or the run's deadline came first).
 */
export async function lookalikes(page: Page, fingerprint: Fingerprint, query: LookalikeQuery): Promise<Lookalike[] | null> {
  const byRole = query.byRole && COUNTABLE_ROLES.has(fingerprint.role);
  const kind: Kind = {
    limit: MAX_LOOKALIKES,
    tag: fingerprint.tag,
    inputType: fingerprint.inputType,
    text: byRole || query.text === undefined ? null : facetReading(query.text),
    identity: query.identities !== false,
    cells: query.identities !== false && query.cells === true,
  };
  try {
    // Every frame's: a form in a frame has its look-alikes there, and a target is picked through frames (target.ts).
    const perFrame = page.frames().map((frame) => evaluateAllKit<Lookalike[], Kind>(kindLocator(frame, fingerprint, byRole, query.folded === true), DESCRIBE_ALL, kind));
    const found = (await withinDeadline(query.deadline, Promise.all(perFrame), 'counting look-alikes')).flat();
    return found.length > MAX_LOOKALIKES ? null : found;
  } catch {
    return null;
  }
}

/**
 * The same element, as far as two captures of its box can tell: within a pixel, since a box at a
 * half pixel rounds either way.
 */
export function sameBox(a: Box, b: Box): boolean {
  return Math.abs(a.x - b.x) < 1 && Math.abs(a.y - b.y) < 1 && Math.abs(a.width - b.width) < 1 && Math.abs(a.height - b.height) < 1;
}

/** A target read again where a check read it: still of its kind and in its box (a re-look before acting). */
export function unmovedTarget(now: Target | null, checked: Target): now is Target {
  return now !== null && sameFingerprint(now.fingerprint, checked.fingerprint) && sameBox(now.box, checked.box);
}

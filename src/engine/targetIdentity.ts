import { accept, refuse, type Outcome } from '../errors/refusal.js';
import type { Page } from 'playwright';
import { actionPoint, type Action } from '../actions/action.js';
import type { Target } from '../checks/fingerprint.js';
import { FACET_LIMIT, facetReading, hasFacets, IDENTITY_FACETS, sameIdentity, type Identity, type IdentityFacet, type LiveIdentity } from '../checks/identity.js';
import { countedByRole, lookalikes, sameBox, type Lookalike } from '../checks/lookalikes.js';
import { lookAlike, viewportScreenshot } from '../checks/visual.js';
import { messageOf } from '../errors/messageOf.js';
import type { BoundParams } from '../params/boundParams.js';
import { redactSecrets } from '../params/secret.js';
import { renderTemplate, templateNames } from '../params/template.js';
import { incidentalOrder, namesSomething, rowCellOf, valuesHeld } from './whichRecord.js';
import { hideSecretsInCut } from '../checks/secretTarget.js';
import { narrowed, type Deadline } from '../progress/deadline.js';
import type { NodeState } from '../trajectory/trajectoryNode.js';

/**
 * Actions that change something where they land: their target must be shown to be the recorded
 * one. Scrolling and moving the pointer change nothing by themselves and keep the lighter rules.
 */
export function needsIdentity(action: Action): boolean {
  switch (action.type) {
    case 'click':
    case 'double_click':
    case 'drag':
    case 'type':
    case 'keypress':
      return true;
    case 'scroll':
    case 'move':
    case 'wait':
    case 'goto':
    case 'tool':
      return false;
  }
}

/** Which facets are asked first when telling a target from its look-alikes. */
const IDENTITY_PRIORITY: readonly IdentityFacet[] = ['testId', 'rowHeader', 'rowCell', 'columnHeader', 'item', 'labelBefore', 'group', 'heading', 'placeholder', 'describedBy', 'id', 'nameAttr'];

/** Facets a person reads, which may show a parameter's value (the row of the customer being edited). */
const READABLE_FACETS = new Set<IdentityFacet>(['rowHeader', 'rowCell', 'columnHeader', 'item', 'labelBefore', 'group', 'heading', 'describedBy', 'placeholder']);

type RecordedIdentity = Pick<NodeState, 'matches' | 'identity' | 'position' | 'order' | 'holds' | 'roleFromAncestor' | 'ownText' | 'ambiguous'>;

/**
 * What a recorded target needs besides its fingerprint: how many elements share its kind, and
 * when that is not exactly one, what told it apart (templated) and, if even that is shared, its
 * position among those that share it. Measured on the page as the agent acted. `task` is the
 * task's words as given (a template): a name they say is what the step means.
 */
export async function recordIdentity(page: Page, target: Target, action: Action, params: BoundParams, task: string, deadline: Deadline): Promise<RecordedIdentity> {
  const rowCell = needsIdentity(action) ? rowCellOf(target.identity, params) : undefined;
  // The look-alikes' rows are read whole only where a cell of the target's row shows a value.
  const found = await lookalikes(page, target.fingerprint, { byRole: target.roleOwn, text: target.ownText, cells: rowCell !== undefined, deadline });
  const recorded: RecordedIdentity = { matches: found ? found.length : null };
  if (!target.roleOwn) recorded.roleFromAncestor = true;
  // Counted by its tag, its own words are its name: what its look-alikes are counted by on replay.
  if (!countedByRole(target.fingerprint, target.roleOwn)) recorded.ownText = storedFacet(target.ownText, params).text;
  if (!needsIdentity(action) || found?.length === 1) return recorded;
  const live: LiveIdentity = rowCell ? { ...target.identity, rowCell: rowCell.text, rowCellAt: rowCell.at } : target.identity;
  const telling = tellingFacets(live, found ?? [], params);
  if (hasFacets(telling)) {
    const templated = templatedIdentity(telling, params, rowCell?.template);
    recorded.identity = templated.identity;
    if (templated.ambiguous.length > 0) recorded.ambiguous = templated.ambiguous;
    const order = incidentalOrder(target, action, templated.identity, found ?? [], task);
    if (order) recorded.order = order;
    const held = valuesHeld(target.identity, templated.identity, params);
    if (held.length > 0) recorded.holds = held;
  }
  // Position only for a target under a point: the field that holds the focus looks unlike the
  // others because of its focus ring, and whatever field holds the focus on replay looks so too.
  if (!actionPoint(action)) return recorded;
  const same = (found ?? []).filter((other) => sameIdentity(other.identity, telling));
  const index = same.findIndex((other) => sameBox(other.box, target.box));
  if (same.length > 1 && index >= 0 && (await looksUnlikeTheOthers(page, target, same, deadline))) recorded.position = { index, of: same.length };
  return recorded;
}

/** The page's picture that compares look-alikes is worth this much of the run's time, no more: without it, no position is kept. */
const LOOKALIKES_CAPTURE_LIMIT_MS = 5_000;

/** More look-alikes than this are never told apart by position: a list, not a toolbar. */
const MAX_BY_POSITION = 8;

/**
 * Position is the last resort, and only where the replay's visual check can still tell the
 * target from the others (toolbar icons that differ): identical empty fields in shuffled rows
 * look alike, so their position says nothing, and such a step is not replayed.
 */
async function looksUnlikeTheOthers(page: Page, target: Target, same: readonly Lookalike[], deadline: Deadline): Promise<boolean> {
  if (same.length > MAX_BY_POSITION) return false;
  let screenshot: Buffer;
  try {
    screenshot = await viewportScreenshot(page, narrowed(deadline, LOOKALIKES_CAPTURE_LIMIT_MS), { scale: 'css' });
  } catch {
    return false;
  }
  for (const other of same) {
    if (sameBox(other.box, target.box)) continue;
    if (await lookAlike(screenshot, target.box, other.box, target.showsValue)) return false;
  }
  return true;
}

/**
 * The facets that tell the target from its look-alikes, taken in IDENTITY_PRIORITY order and
 * only where each narrows them further, until one element is left. Fewer facets are fewer that
 * can change for no reason (a price beside a button); the order puts what a page declares and
 * what a person reads before attributes a page may hand out afresh on each load (a field's
 * `name` shuffled with its row is not the field). Facets with no digits are asked first: a count
 * ("23 comments") that happens to differ when recorded may be shared by another item next time,
 * where a title would not.
 */
function tellingFacets(identity: Identity, found: readonly Lookalike[], params: BoundParams): Identity {
  const telling: Identity = {};
  let left = found.length;
  // A facet that shows a parameter's value is what the task names (the claim of {{amount}}): asked
  // before any other, digits or not, so the row follows the value and not a name that is incidental.
  const named = IDENTITY_PRIORITY.filter((facet) => identity[facet] !== undefined && (facet === 'rowCell' || standsForAny(facet, identity[facet]!, params)));
  const rest = IDENTITY_PRIORITY.filter((facet) => !named.includes(facet));
  const order = [...named, ...rest.filter((facet) => !/\d/.test(identity[facet] ?? '')), ...rest.filter((facet) => /\d/.test(identity[facet] ?? ''))];
  for (const facet of order) {
    const value = identity[facet];
    if (value === undefined) continue;
    const asked: Identity = { ...telling, [facet]: value, ...(facet === 'rowCell' ? { rowCellAt: identity.rowCellAt } : {}) };
    const narrower = found.filter((other) => sameIdentity(other.identity, asked)).length;
    if (narrower >= left) continue;
    Object.assign(telling, asked);
    left = narrower;
    if (left <= 1) break;
  }
  return telling;
}

/** Whether a facet a person reads is some parameter's whole value. */
function standsForAny(facet: IdentityFacet, text: string, params: BoundParams): boolean {
  return READABLE_FACETS.has(facet) && params.plainEntries().some(([, plain]) => standsFor(text, plain));
}

/**
 * Whether a facet's text can stand for a parameter's value: the same reading, and long enough to
 * be a name rather than a coincidence (a row numbered "2" is not the {{copies}} of the run): three
 * characters with a letter, or a number of four digits or more (an order id).
 */
function standsFor(facetText: string, value: string): boolean {
  return facetReading(facetText) === facetReading(value) && namesSomething(value);
}

/**
 * An identity as stored: secrets as `{{name}}` wherever they stand (even cut short at the facet
 * limit), and a facet a person reads that is a parameter's whole value as its template, so the
 * next run looks for the row of its own value.
 */
function templatedIdentity(identity: Identity, params: BoundParams, rowCellTemplate: string | undefined): { identity: Identity; ambiguous: string[][] } {
  const ambiguous: string[][] = [];
  const stored: Identity = {};
  for (const facet of IDENTITY_FACETS) {
    const value = identity[facet];
    if (value === undefined) continue;
    // A row's cell is kept only for the value it shows, templated where it stands in the cell's words (`${{amount}}`).
    if (facet === 'rowCell' && rowCellTemplate !== undefined) {
      stored.rowCell = storedFacet(rowCellTemplate, params).text;
      stored.rowCellAt = identity.rowCellAt;
      continue;
    }
    const names = READABLE_FACETS.has(facet) ? params.plainEntries().filter(([, plain]) => standsFor(value, plain)).map(([name]) => name) : [];
    if (names.length > 1) ambiguous.push(names);
    stored[facet] = names.length > 0 ? `{{${names[0]}}}` : storedFacet(value, params).text;
  }
  return { identity: stored, ambiguous };
}

/**
 * A facet's text as stored or shown: secret values as `{{name}}`, and a facet cut at FACET_LIMIT
 * that may end in the first characters of a secret has those replaced too.
 */
export function storedFacet(text: string, params: BoundParams): { text: string } {
  return { text: hideSecretsInCut(text, text.length >= FACET_LIMIT, params) };
}

/** A live facet as a message may show it: no secret, whole or cut short. */
export function shownFacet(text: string, params: BoundParams): string {
  return redactSecrets(storedFacet(text, params).text, params);
}

/** The recorded identity with this run's values, cut as the page's facets are; a string is why it cannot be rendered. */
export function expectedIdentity(identity: Identity, params: BoundParams): Outcome<Identity> {
  const rendered: Identity = identity.rowCellAt !== undefined ? { rowCellAt: identity.rowCellAt } : {};
  for (const facet of IDENTITY_FACETS) {
    const value = identity[facet];
    if (value === undefined) continue;
    try {
      rendered[facet] = renderTemplate(value, params).replace(/\s+/g, ' ').trim().slice(0, FACET_LIMIT);
    } catch (error) {
      return refuse(messageOf(error));
    }
  }
  return accept(rendered);
}

/** A stored own text with this run's values, cut as the page's is. */
export function expectedOwnText(ownText: string, params: BoundParams): string | undefined {
  try {
    return renderTemplate(ownText, params).replace(/\s+/g, ' ').trim().slice(0, FACET_LIMIT);
  } catch {
    return undefined;
  }
}

/** Parameters an identity's templates name: the step puts them to use (it picks the row of their value). */
export function identityNames(identity: Identity | undefined): string[] {
  if (!identity) return [];
  return IDENTITY_FACETS.flatMap((facet) => (identity[facet] === undefined ? [] : templateNames(identity[facet]!)));
}

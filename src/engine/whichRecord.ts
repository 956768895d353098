import type { Action } from '../actions/action.js';
import type { Target } from '../checks/fingerprint.js';
import { facetReading, IDENTITY_FACETS, type Identity, type IdentityFacet, type LiveIdentity } from '../checks/identity.js';
import { sameBox, type Lookalike } from '../checks/lookalikes.js';
import type { BoundParams } from '../params/boundParams.js';
import { isTemplate } from '../params/template.js';

// Which record a target stands in (a table's row, a list's item, a card), and what the recording
// says of why that record: the words beside a button are data (the claimant of a claim), unlike a
// field's row header, which is its label. See docs/checks.md, "A label, or a record's data".

/**
 * Whether a value is long enough to name something rather than to match by chance (a row numbered
 * "2" is not the {{copies}} of the run): three characters with a letter; four digits or more (an
 * order id, "$1,250.00"); or three digits written as money or a measure ("$9.50", "310%").
 */
export function namesSomething(value: string): boolean {
  const reading = facetReading(value);
  if (reading.length >= 3 && /\p{L}/u.test(reading)) return true;
  const digits = reading.replace(/\D/g, '').length;
  return digits >= 4 || (digits >= 3 && /[.,]\d{2}(?!\d)|[$€£¥%]/u.test(reading));
}

/** A value as whole words inside a text ("$250.00" shows 250.00; "1250.00" and "250.001" do not), case aside. */
export function showsWithin(text: string, value: string): boolean {
  return wordBounded(value).test(facetReading(text));
}

function wordBounded(value: string): RegExp {
  const escaped = facetReading(value).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\p{L}\\p{N}.,])${escaped}(?![\\p{L}\\p{N}]|[.,]\\p{N})`, 'u');
}

/** A cell longer than this is a description, not a value: a parameter's value in it says little. */
const VALUE_CELL_LIMIT = 40;

/**
 * The row's cell that shows a parameter's value (`250.00`, `$250.00`, `250.00 USD`), other than
 * the row header (templated on its own): stored as the cell's words with the value as its template
 * (`${{amount}}`) and its place in the row, so the next run picks the row that shows its own value
 * in that column. The first such cell, for the first parameter whose value it shows.
 */
export function rowCellOf(identity: LiveIdentity, params: BoundParams): { text: string; template: string; at: number } | undefined {
  const cells = identity.rowCells ?? [];
  for (let at = 0; at < cells.length; at++) {
    const text = cells[at]!;
    if (text === '' || text.length > VALUE_CELL_LIMIT || (identity.rowHeader !== undefined && facetReading(text) === facetReading(identity.rowHeader))) continue;
    for (const [name, plain] of params.plainEntries()) {
      if (!namesSomething(plain) || !showsWithin(text, plain)) continue;
      // The cell's own words around the value, as the page shows them (the match is found in lower case).
      const shown = text.replace(/\s+/g, ' ').trim();
      const lower = shown.toLowerCase();
      const found = lower.length === shown.length ? lower.match(wordBounded(plain)) : null;
      if (!found) continue;
      return { text, template: `${shown.slice(0, found.index!)}{{${name}}}${shown.slice(found.index! + found[0].length)}`, at };
    }
  }
  return undefined;
}

/**
 * The parameters whose value the target's record shows (its row's cells, its list item's words),
 * where nothing of its stored identity is a template: the record was chosen for that value, or by
 * chance holds it, and a replay acts only on a record that shows this run's value.
 */
export function valuesHeld(identity: LiveIdentity, stored: Identity, params: BoundParams): string[] {
  if (IDENTITY_FACETS.some((facet) => stored[facet] !== undefined && isTemplate(stored[facet]!))) return [];
  const words = recordWords(identity);
  if (words === '') return [];
  return params.plainEntries().filter(([, plain]) => namesSomething(plain) && showsWithin(words, plain)).map(([name]) => name);
}

/** A record's words as one text: its row's cells, or its list item's. */
export function recordWords(identity: LiveIdentity): string {
  return [...(identity.rowCells ?? []), identity.itemText ?? ''].filter((text) => text !== '').join(' | ');
}

/** Facets that are a label whatever the target: a column's header names the column, not the record. */
const LABEL_FACETS = new Set<IdentityFacet>(['columnHeader']);

/** Facets that name a record even for a checkbox or a radio (a row's or an item's name); the rest is a question's label there. */
const RECORD_FACETS = new Set<IdentityFacet>(['rowHeader', 'item']);

/** Whether an action lands where it points, as a click does: only those are kept by their place. */
function pointsAt(action: Action): boolean {
  switch (action.type) {
    case 'click':
    case 'double_click':
    case 'drag':
      return true;
    case 'type':
    case 'keypress':
    case 'scroll':
    case 'move':
    case 'wait':
    case 'goto':
    case 'tool':
      return false;
  }
}

/**
 * Where a click is known by words that neither a parameter nor the task gives (a requester's name
 * beside Approve, a card's title, a per-row test id), those words may be what the step means, or
 * only what stood at that place ("the first request"). Nothing recorded tells which, so the
 * target's place among its look-alikes is kept beside them, and a replay that finds the words at
 * another place does not choose. Left out: a text field or select (what tells it apart is its
 * label), a checkbox's or radio's question (its group, the text before it; its row's or item's
 * name still counts), a column's header, and words the task says.
 */
export function incidentalOrder(target: Target, action: Action, stored: Identity, found: readonly Lookalike[], task: string): { index: number; of: number } | undefined {
  if (!pointsAt(action) || target.showsValue) return undefined;
  const choice = target.fingerprint.role === 'checkbox' || target.fingerprint.role === 'radio' || target.fingerprint.inputType === 'checkbox' || target.fingerprint.inputType === 'radio';
  const taskWords = facetReading(task);
  const incidental = IDENTITY_FACETS.some((facet) => {
    const value = stored[facet];
    if (value === undefined || isTemplate(value) || LABEL_FACETS.has(facet) || (choice && !RECORD_FACETS.has(facet))) return false;
    return !namedBy(taskWords, facetReading(value));
  });
  if (!incidental) return undefined;
  const index = found.findIndex((other) => sameBox(other.box, target.box));
  return index >= 0 ? { index, of: found.length } : undefined;
}

/** Whether the task's words say a name, as whole words ("Approve Cy Diaz's request" says "cy diaz"). */
function namedBy(taskWords: string, name: string): boolean {
  return namesSomething(name) && /\p{L}/u.test(name) && wordBounded(name).test(taskWords);
}

/**
 * Why a target known by words nothing gave (incidentalOrder) cannot be taken where they now stand:
 * at another place among its look-alikes, the words and the place point at two records, and
 * nothing recorded says which the step meant (the request of "Ada Byrne", or the first one).
 */
export function movedRecord(found: readonly Lookalike[], picked: Lookalike, order: { index: number; of: number } | undefined): string | undefined {
  if (!order) return undefined;
  const place = found.indexOf(picked);
  if (place === order.index) return undefined;
  return `the words it was known by now stand at place ${place + 1} of ${found.length} among the elements like it, and stood at place ${order.index + 1} of ${order.of} when recorded: neither a parameter nor the task's words give them, so nothing recorded tells whether the step meant those words or that place, and the step cannot be shown safe`;
}

/** Why the picked record is not the one the recording acted on: it does not show this run's value of a parameter its record showed. */
export function valueNotHeld(picked: Lookalike, held: readonly string[] | undefined, params: BoundParams): string | undefined {
  const words = recordWords(picked.identity);
  const missing = (held ?? []).filter((name) => {
    const value = params.get(name);
    return value === undefined || !showsWithin(words, value);
  });
  if (missing.length === 0) return undefined;
  return `its row or item showed the value of ${missing.map((name) => `{{${name}}}`).join(', ')} when recorded, and does not show this run's value now: it may be another record, and nothing recorded tells which record holds the value`;
}

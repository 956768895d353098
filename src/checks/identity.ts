import { z } from 'zod';
import { fold } from '../params/fold.js';

/**
 * What tells a target apart from its look-alikes when role and accessible name do not: what a
 * person reads to know it, and the attributes a page keeps stable. Playwright's locator
 * priorities are the model (test id, role + name, placeholder, label, text, then CSS), with the
 * reading of a table a person does: the row's header and the column's.
 *
 * Every facet is text as the page shows it (whitespace folded, at most FACET_LIMIT characters).
 */
export const identitySchema = z
  .object({
    /** data-testid (or data-test-id, data-test, data-qa, data-cy). */
    testId: z.string().optional(),
    /** The id attribute, unless it looks generated (a GUID, a long number, a framework's counter). */
    id: z.string().optional(),
    /** The form control's name attribute, unless it looks generated. */
    nameAttr: z.string().optional(),
    placeholder: z.string().optional(),
    /** The text of the elements aria-describedby names. */
    describedBy: z.string().optional(),
    /** In a table row: its header cell (a th, a rowheader), else its first cell with text before the target's. */
    rowHeader: z.string().optional(),
    /** In a table: the header of the target's column. */
    columnHeader: z.string().optional(),
    /** The nearest text before the target, within its cell, or up to the previous control. */
    labelBefore: z.string().optional(),
    /** The legend of its fieldset, or the name of its group or radiogroup. */
    group: z.string().optional(),
  })
  .strip();

export type Identity = z.infer<typeof identitySchema>;
export type IdentityFacet = keyof Identity;

/** Facets in the order they are named in messages: what a person reads first. */
export const IDENTITY_FACETS: readonly IdentityFacet[] = ['rowHeader', 'columnHeader', 'labelBefore', 'group', 'placeholder', 'describedBy', 'testId', 'id', 'nameAttr'];

export const FACET_LIMIT = 120;

/**
 * In-page JavaScript defining identityOf(el) (the facets above) and isVisible(el). Source text,
 * not a TS function, so no transpiler helper can leak into the page (see perform.ts).
 */
export const IDENTITY_JS = String.raw`
  var clean = function (s) { s = String(s == null ? '' : s).replace(/\s+/g, ' ').trim(); return s.length > ${FACET_LIMIT} ? s.slice(0, ${FACET_LIMIT}) : s; };
  var isVisible = function (el) {
    if (!el || !el.getBoundingClientRect) return false;
    var r = el.getBoundingClientRect();
    if (r.width <= 0 || r.height <= 0) return false;
    return typeof el.checkVisibility === 'function' ? el.checkVisibility({ visibilityProperty: true }) : true;
  };
  // Playwright's isGuidLike (selectorGenerator.ts): many switches between letter case and digits.
  var guidLike = function (id) {
    var last = null, transitions = 0;
    for (var i = 0; i < id.length; i++) {
      var c = id[i], type;
      if (c === '-' || c === '_') continue;
      if (c >= 'a' && c <= 'z') type = 'lower'; else if (c >= 'A' && c <= 'Z') type = 'upper'; else if (c >= '0' && c <= '9') type = 'digit'; else type = 'other';
      if (type === 'lower' && last === 'upper') { last = type; continue; }
      if (last && last !== type) transitions++;
      last = type;
    }
    return transitions >= id.length / 4;
  };
  var generated = function (id) {
    return guidLike(id) || /\d{4,}/.test(id) || /[0-9a-f]{8,}/i.test(id) || /^(ember|react|ng-|mui|radix|headlessui|yui_|ext-gen|gwt-|j_id|:r)/i.test(id) || /^:/.test(id);
  };
  // A field before the target owns the text before it ("Title: [ ] Author: [ ]"); a button's or a link's does not.
  var FIELD = 'input:not([type=hidden]):not([type=submit]):not([type=button]):not([type=reset]):not([type=image]),select,textarea,[role=textbox],[role=combobox],[contenteditable=""],[contenteditable="true"]';
  var textOfElement = function (el) { return el ? clean(el.innerText !== undefined ? el.innerText : el.textContent) : ''; };
  var cellsOf = function (row) {
    return Array.prototype.filter.call(row.children, function (c) { return /^(TD|TH)$/.test(c.tagName) || /^(cell|gridcell|rowheader|columnheader)$/.test(c.getAttribute('role') || ''); });
  };
  var columnIndex = function (cell) {
    var index = 0, cells = cellsOf(cell.parentElement);
    for (var i = 0; i < cells.length && cells[i] !== cell; i++) index += cells[i].colSpan || 1;
    return index;
  };
  var headerRowOf = function (table) {
    var head = table.querySelector('thead tr:last-child');
    if (head) return head;
    var rows = table.querySelectorAll('tr, [role=row]');
    for (var i = 0; i < rows.length; i++) {
      var cells = cellsOf(rows[i]);
      if (cells.length > 1 && cells.every(function (c) { return c.tagName === 'TH' || c.getAttribute('role') === 'columnheader'; })) return rows[i];
    }
    return null;
  };
  // The nearest visible text before el in document order, within 'within', stopping at another field
  // (the text before it is that field's), skipping what buttons say.
  var labelBefore = function (el, within) {
    var walker = document.createTreeWalker(within || document.body, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    walker.currentNode = el;
    for (var steps = 0, node = walker.previousNode(); node && steps < 300; node = walker.previousNode(), steps++) {
      if (node.nodeType === 1) {
        if (node.contains(el)) continue;
        if (node.matches(FIELD) && isVisible(node)) return '';
        continue;
      }
      var text = clean(node.textContent);
      var parent = node.parentElement;
      if (!text || !parent || /^(SCRIPT|STYLE|NOSCRIPT|OPTION|TEMPLATE)$/.test(parent.tagName) || parent.closest('select,button,textarea,[role=button]')) continue;
      if (!isVisible(parent)) continue;
      return text;
    }
    return '';
  };
  var identityOf = function (el) {
    var facets = {};
    var testIds = ['data-testid', 'data-test-id', 'data-test', 'data-qa', 'data-cy'];
    for (var t = 0; t < testIds.length; t++) { var v = el.getAttribute(testIds[t]); if (v) { facets.testId = clean(v); break; } }
    var id = el.getAttribute('id');
    if (id && !generated(id)) facets.id = clean(id);
    var name = el.getAttribute('name');
    if (name && /^(INPUT|SELECT|TEXTAREA|BUTTON)$/.test(el.tagName) && !generated(name)) facets.nameAttr = clean(name);
    var placeholder = el.getAttribute('placeholder');
    if (placeholder && clean(placeholder)) facets.placeholder = clean(placeholder);
    var described = (el.getAttribute('aria-describedby') || '').split(/\s+/).filter(Boolean).map(function (ref) { return textOfElement(document.getElementById(ref)); }).filter(Boolean).join(' ');
    if (described) facets.describedBy = clean(described);
    var cell = el.closest('td, th, [role=cell], [role=gridcell]');
    var row = cell && cell.parentElement && cell.parentElement.closest('tr, [role=row]') === cell.parentElement ? cell.parentElement : null;
    if (row) {
      var cells = cellsOf(row), header = '';
      for (var i = 0; i < cells.length && !header; i++) {
        if (cells[i] === cell) continue;
        if (cells[i].tagName === 'TH' || cells[i].getAttribute('role') === 'rowheader') header = textOfElement(cells[i]);
      }
      for (var j = 0; j < cells.length && !header && cells[j] !== cell; j++) header = textOfElement(cells[j]);
      if (header) facets.rowHeader = header;
      var table = row.closest('table, [role=table], [role=grid], [role=treegrid]');
      var headerRow = table ? headerRowOf(table) : null;
      if (headerRow && headerRow !== row) {
        var wanted = columnIndex(cell), at = 0, headers = cellsOf(headerRow);
        for (var h = 0; h < headers.length; h++) {
          var span = headers[h].colSpan || 1;
          if (wanted >= at && wanted < at + span) { var column = textOfElement(headers[h]); if (column) facets.columnHeader = column; break; }
          at += span;
        }
      }
    }
    var before = labelBefore(el, cell || null);
    if (before) facets.labelBefore = before;
    var fieldset = el.closest('fieldset');
    var legend = fieldset && fieldset.querySelector('legend');
    var group = el.closest('[role=group], [role=radiogroup]');
    var groupName = legend ? textOfElement(legend) : group ? clean(group.getAttribute('aria-label') || (group.getAttribute('aria-labelledby') || '').split(/\s+/).map(function (ref) { return textOfElement(document.getElementById(ref)); }).join(' ')) : '';
    if (groupName) facets.group = groupName;
    return facets;
  };`;

/** Two readings of one facet: equal, or equal case and punctuation aside ("Genre:" and "genre"). */
function sameReading(live: string | undefined, expected: string): boolean {
  if (live === undefined) return false;
  if (live === expected) return true;
  const folded = fold(expected);
  return folded !== '' && fold(live) === folded;
}

/** Whether `live` shows every facet `expected` has, as it has it. */
export function sameIdentity(live: Identity, expected: Identity): boolean {
  return IDENTITY_FACETS.every((facet) => expected[facet] === undefined || sameReading(live[facet], expected[facet]));
}

/** Whether an identity has any facet at all. */
export function hasFacets(identity: Identity): boolean {
  return IDENTITY_FACETS.some((facet) => identity[facet] !== undefined);
}

const FACET_WORDS: Record<IdentityFacet, string> = {
  rowHeader: 'row',
  columnHeader: 'column',
  labelBefore: 'after the text',
  group: 'in group',
  placeholder: 'placeholder',
  describedBy: 'described as',
  testId: 'test id',
  id: 'id',
  nameAttr: 'name',
};

/** `row "Genre", column "Value"`, for messages. */
export function describeIdentity(identity: Identity): string {
  const parts = IDENTITY_FACETS.filter((facet) => identity[facet] !== undefined).map((facet) => `${FACET_WORDS[facet]} ${JSON.stringify(identity[facet])}`);
  return parts.length > 0 ? parts.join(', ') : 'nothing that tells it apart';
}

/** The facets where `live` differs from `expected`, for a divergence's reason. */
export function identityDifference(live: Identity, expected: Identity): string {
  return IDENTITY_FACETS.filter((facet) => expected[facet] !== undefined && !sameReading(live[facet], expected[facet]!))
    .map((facet) => `${FACET_WORDS[facet]} ${live[facet] === undefined ? 'missing' : JSON.stringify(live[facet])} (recorded ${JSON.stringify(expected[facet])})`)
    .join(', ');
}

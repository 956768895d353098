import { z } from 'zod';

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
    /**
     * In a table row: another of its cells, kept only where it shows a parameter's value
     * (`{{amount}}`, `${{amount}}`): the row the task names, wherever its header stands (the claim
     * of 250.00, not Ada's claim). Compared with the cell at `rowCellAt` only.
     */
    rowCell: z.string().optional(),
    /** The place of rowCell's cell among its row's cells (its column): another column's equal text is not it. */
    rowCellAt: z.number().int().nonnegative().optional(),
    /** In a table: the header of the target's column. */
    columnHeader: z.string().optional(),
    /** The nearest text before the target, within its cell or list item, or up to the previous field. */
    labelBefore: z.string().optional(),
    /** In a list item (li, article, option): its headline, the first words no button says (a post's title). */
    item: z.string().optional(),
    /** The nearest heading before the target: the section it is in ("Shipping address"). */
    heading: z.string().optional(),
    /** The legend of its fieldset, or the name of its group or radiogroup. */
    group: z.string().optional(),
  })
  .strip();

export type Identity = z.infer<typeof identitySchema>;
/** The facets, each a text as the page shows it (rowCellAt is where rowCell stands, not a facet). */
export type IdentityFacet = Exclude<keyof Identity, 'rowCellAt'>;

/**
 * An identity read on the live page: the facets, and the words of the record the element stands in
 * (never stored), read only where asked for: in a table row, each cell's text by its place (the
 * element's own cell empty); in a list item, the item's whole text. A recorded `rowCell` must be
 * the cell at its place.
 */
export type LiveIdentity = Identity & { rowCells?: string[]; itemText?: string };

/** Facets in the order they are named in messages: what a person reads first. */
export const IDENTITY_FACETS: readonly IdentityFacet[] = ['rowHeader', 'rowCell', 'columnHeader', 'item', 'labelBefore', 'group', 'heading', 'placeholder', 'describedBy', 'testId', 'id', 'nameAttr'];

export const FACET_LIMIT = 120;

/** A record's words read for the values it shows: a row's first cells, a list item's first characters (a record's, not a page's). */
const ROW_CELLS_LIMIT = 24;
const ITEM_TEXT_LIMIT = 400;

/**
 * In-page JavaScript defining identityOf(el) (the facets above) and isVisible(el). Source text,
 * not a TS function, so no transpiler helper can leak into the page (see perform.ts).
 */
export const IDENTITY_JS = String.raw`
  // Facets keep up to FACET_LIMIT characters; the node side hides any secret, even one cut short.
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
  // Ids a framework hands out by counter or at random: they name another element on another load.
  var generated = function (id) {
    return guidLike(id) || /\d{4,}/.test(id) || /[0-9a-f]{8,}/i.test(id) || /^(ember|react|ng-|mat-|mui|radix|headlessui|yui_|ext-gen|gwt-|j_id|__|:r|input-\d)/i.test(id) || /^:/.test(id) || /[-_]\d+[-_]/.test(id);
  };
  // A field before the target owns the text before it ("Title: [ ] Author: [ ]"); a button's or a link's does not.
  var FIELD = 'input:not([type=hidden]):not([type=submit]):not([type=button]):not([type=reset]):not([type=image]),select,textarea,[role=textbox],[role=combobox],[contenteditable=""],[contenteditable="true"]';
  // What a person takes as one item of a list: what is read in it belongs to it, not to the item above.
  var ITEM = 'li,[role=listitem],article,[role=article],[role=option],[role=treeitem]';
  var textOfElement = function (el) { return el ? clean(el.innerText !== undefined ? el.innerText : el.textContent) : ''; };
  var cellsOf = function (row) {
    return Array.prototype.filter.call(row.children, function (c) { return /^(TD|TH)$/.test(c.tagName) || /^(cell|gridcell|rowheader|columnheader)$/.test(c.getAttribute('role') || ''); });
  };
  var columnIndex = function (cell) {
    var index = 0, cells = cellsOf(cell.parentElement);
    for (var i = 0; i < cells.length && cells[i] !== cell; i++) index += cells[i].colSpan || 1;
    return index;
  };
  // One look per table, however many of its cells are asked about (a table of 2,000 rows).
  var headerRows = new Map();
  var headerRowOf = function (table) {
    if (headerRows.has(table)) return headerRows.get(table);
    var found = table.querySelector('thead tr:last-child');
    if (!found) {
      var rows = table.querySelectorAll('tr, [role=row]');
      for (var i = 0; i < rows.length && i < 5 && !found; i++) {
        var cells = cellsOf(rows[i]);
        if (cells.length > 1 && cells.every(function (c) { return c.tagName === 'TH' || c.getAttribute('role') === 'columnheader'; })) found = rows[i];
      }
    }
    headerRows.set(table, found || null);
    return found || null;
  };
  // A radio's or checkbox's siblings in its group, and the labels of other controls, say nothing of it.
  var sameGroup = function (node, el) {
    return el.name && node.tagName === 'INPUT' && (node.type === 'radio' || node.type === 'checkbox') && node.name === el.name && node.form === el.form;
  };
  var labelsOther = function (parent, el) {
    var label = parent.closest('label');
    return !!label && label.control !== null && label.control !== el && !label.contains(el);
  };
  // The nearest visible text before el in document order, within 'within', stopping at another field
  // (the text before it is that field's), skipping what buttons say and other controls' labels.
  var labelBefore = function (el, within) {
    var walker = document.createTreeWalker(within || document.body, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    walker.currentNode = el;
    for (var steps = 0, node = walker.previousNode(); node && steps < 300; node = walker.previousNode(), steps++) {
      if (node.nodeType === 1) {
        if (node.contains(el)) continue;
        if (node.matches(FIELD) && isVisible(node) && !sameGroup(node, el)) return '';
        continue;
      }
      var text = clean(node.textContent);
      var parent = node.parentElement;
      if (!text || !parent || /^(SCRIPT|STYLE|NOSCRIPT|OPTION|TEMPLATE)$/.test(parent.tagName) || parent.closest('select,button,textarea,[role=button]')) continue;
      if (labelsOther(parent, el) || !isVisible(parent)) continue;
      return text;
    }
    return '';
  };
  // An item's headline: its first words that no button says (a post's title, an issue's summary),
  // read up to the end of the block they stand in, not its counters and dates further down.
  var itemHeadline = function (item) {
    var walker = document.createTreeWalker(item, NodeFilter.SHOW_TEXT);
    for (var node = walker.nextNode(); node; node = walker.nextNode()) {
      var parent = node.parentElement;
      if (!parent || parent.closest('button,select,textarea,[role=button],script,style,template') || !isVisible(parent)) continue;
      if (!node.textContent.trim()) continue;
      var block = parent;
      while (block !== item && block.parentElement && getComputedStyle(block).display === 'inline') block = block.parentElement;
      if (block === item || block.querySelector('button,select,textarea,input,[role=button]')) return clean(node.textContent);
      return textOfElement(block);
    }
    return '';
  };
  // The nearest heading before el (a form's "Shipping address"): what a person reads to know which
  // section. The page's headings are listed once per evaluation and searched by document order.
  var headings = null;
  var headingBefore = function (el) {
    if (!headings) headings = Array.prototype.filter.call(document.querySelectorAll('h1,h2,h3,h4,h5,h6,[role=heading]'), isVisible);
    var low = 0, high = headings.length - 1, found = null;
    while (low <= high) {
      var mid = (low + high) >> 1, h = headings[mid];
      if (h === el || h.contains(el) || (h.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING)) { if (!h.contains(el) && h !== el) found = h; low = mid + 1; }
      else high = mid - 1;
    }
    return found ? textOfElement(found) : '';
  };
  // withCells: the words of the record it stands in too (rowCells, itemText), for the values it shows.
  var identityOf = function (el, withCells) {
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
      // The row's header cell; else its first cell with text before the target's; else after it
      // (a row that starts with its selection checkbox is known by the name beside it).
      var cells = cellsOf(row), header = '', mine = cells.indexOf(cell);
      for (var i = 0; i < cells.length && !header; i++) {
        if (cells[i] !== cell && (cells[i].tagName === 'TH' || cells[i].getAttribute('role') === 'rowheader')) header = textOfElement(cells[i]);
      }
      for (var j = 0; j < mine && !header; j++) header = textOfElement(cells[j]);
      for (var k = mine + 1; k < cells.length && !header; k++) header = textOfElement(cells[k]);
      if (header) facets.rowHeader = header;
      if (withCells) {
        facets.rowCells = [];
        for (var c = 0; c < cells.length && c < ${ROW_CELLS_LIMIT}; c++) facets.rowCells.push(cells[c] === cell ? '' : textOfElement(cells[c]));
      }
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
    var item = cell ? null : el.closest(ITEM);
    var before = labelBefore(el, cell || item || null);
    if (before) facets.labelBefore = before;
    if (item && item !== el) { var headline = itemHeadline(item); if (headline) facets.item = headline; }
    if (withCells && item && item !== el) { var words = String(item.innerText || '').replace(/\s+/g, ' ').trim(); if (words) facets.itemText = words.slice(0, ${ITEM_TEXT_LIMIT}); }
    var heading = headingBefore(el);
    if (heading) facets.heading = heading;
    var fieldset = el.closest('fieldset');
    var legend = fieldset && fieldset.querySelector('legend');
    var group = el.closest('[role=group], [role=radiogroup]');
    var groupName = legend ? textOfElement(legend) : group ? clean(group.getAttribute('aria-label') || (group.getAttribute('aria-labelledby') || '').split(/\s+/).map(function (ref) { return textOfElement(document.getElementById(ref)); }).join(' ')) : '';
    if (groupName) facets.group = groupName;
    return facets;
  };
  // The words an element shows itself (a clickable div's "Open"), for elements with no role of their own.
  var ownText = function (el) { return textOfElement(el); };`;

/**
 * One facet as it is compared: whitespace folded, a label's trailing colon or asterisk dropped,
 * case aside. Punctuation inside stays: john.smith and john_smith are two people.
 */
export function facetReading(text: string): string {
  return text.replace(/\s+/g, ' ').trim().replace(/[\s:*]+$/u, '').toLowerCase();
}

/** Two readings of one facet: the same, as facetReading compares them. */
function sameReading(live: string | undefined, expected: string): boolean {
  return live !== undefined && facetReading(live) === facetReading(expected);
}

/** Whether `live` has one facet as `expected` has it: a rowCell is the row's cell at its place. */
function sameFacet(live: LiveIdentity, facet: IdentityFacet, expected: Identity): boolean {
  const wanted = expected[facet];
  if (wanted === undefined) return true;
  if (facet === 'rowCell') return expected.rowCellAt !== undefined && sameReading(live.rowCells?.[expected.rowCellAt], wanted);
  return sameReading(live[facet], wanted);
}

/** Whether `live` shows every facet `expected` has, as it has it. */
export function sameIdentity(live: LiveIdentity, expected: Identity): boolean {
  return IDENTITY_FACETS.every((facet) => sameFacet(live, facet, expected));
}

/** Whether an identity has any facet at all. */
export function hasFacets(identity: Identity): boolean {
  return IDENTITY_FACETS.some((facet) => identity[facet] !== undefined);
}

const FACET_WORDS: Record<IdentityFacet, string> = {
  rowHeader: 'row',
  rowCell: 'cell',
  columnHeader: 'column',
  labelBefore: 'text before',
  item: 'item',
  heading: 'heading',
  group: 'group',
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

/**
 * The facets where `live` differs from `expected`, for a divergence's reason: `shown` says how a
 * live value may be shown (no secret), `recorded` holds what the recording stored (templates).
 */
export function identityDifference(live: LiveIdentity, expected: Identity, recorded: Identity, shown: (text: string) => string): string {
  return IDENTITY_FACETS.filter((facet) => expected[facet] !== undefined && !sameFacet(live, facet, expected))
    .map((facet) => {
      const now = facet === 'rowCell' ? (expected.rowCellAt === undefined ? undefined : live.rowCells?.[expected.rowCellAt]) : live[facet];
      return `${FACET_WORDS[facet]} ${now === undefined || now === '' ? 'missing' : JSON.stringify(shown(now))} (recorded ${JSON.stringify(recorded[facet])})`;
    })
    .join(', ');
}

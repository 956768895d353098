/**
 * What the catalogue agent reads from the live page, with one in-page script per call: fields by
 * their row header, placeholder or id, the shelf rows by their "Shelf" cell, the text-less
 * toolbar buttons by their drawing, the progress indicator, the Notes field by its label.
 */
import type { Page } from 'playwright';
import { DOM_HELPERS_JS, evaluateSnapshot, FIRST_DIALOG_JS, type Box, type Viewport } from '../../../src/demo/agentKit.js';

export type TextField = { value: string; box: Box | null };

export type CatalogSnapshot = {
  viewport: Viewport;
  dialog: { text: string; button: Box | null } | null;
  /** The slow page's "Loading, please wait" is showing. */
  loading: boolean;
  /** The visible h1. */
  heading: string | null;
  /** The "Book published" page's sentence. */
  confirmation: string | null;
  /** A visible role=alert's text. */
  error: string | null;
  /** Table rows with a header cell and a text input, in page order. */
  rows: (TextField & { header: string })[];
  /** The text input whose placeholder is "Publisher". */
  publisher: TextField | null;
  /** The text input with id "isbn". */
  isbn: TextField | null;
  /** Visible buttons with text, enabled or not. */
  buttons: { text: string; disabled: boolean; box: Box | null }[];
  /** The rows of the table whose first header is "Shelf": the shelf's name and its row's "Assign". */
  shelves: { shelf: string; assign: Box | null }[];
  /** What "Selected shelf:" says; null for none. */
  selectedShelf: string | null;
  /** Visible buttons holding nothing but an <svg>: the drawing's markup (whitespace folded). */
  icons: { markup: string; box: Box | null }[];
  /** The visible progress bar's aria-valuenow. */
  progress: number | null;
  /** Visible textareas and their label's text ('' while the label is empty). */
  textareas: (TextField & { label: string })[];
  /** Visible required checkboxes nobody ticked. */
  requiredUnchecked: { label: string; box: Box | null }[];
  /** Visible labelled inputs and selects (not checkboxes): the "Acquisition" fields. */
  labelled: (TextField & { label: string; type: string; options: { value: string; label: string }[] })[];
};

/** Runs in the page. Plain JavaScript source, so that no transpiler helper (esbuild's `__name`) leaks into the browser. */
const SNAPSHOT_SCRIPT = String.raw`(function () {
  ${DOM_HELPERS_JS}
  ${FIRST_DIALOG_JS}
  var each = function (selector, fn) { Array.prototype.forEach.call(document.querySelectorAll(selector), fn); };
  var isText = function (el) { return el && el.tagName === 'INPUT' && ['text', ''].indexOf((el.getAttribute('type') || '').toLowerCase()) >= 0; };
  var field = function (el) { return { value: el.value, box: box(el) }; };
  var labelOf = function (el) { return el.labels && el.labels.length ? clean(el.labels[0].textContent) : ''; };

  var loadingEl = document.getElementById('slow-loading');
  var heading = null;
  each('h1', function (h) { if (heading === null && visible(h)) heading = clean(h.textContent); });
  var confirmationEl = document.getElementById('confirmation');
  var error = null;
  each('[role="alert"]', function (a) { if (error === null && visible(a)) error = clean(a.textContent); });

  var rows = [];
  each('tr', function (tr) {
    // A row of its own table: its header is one of its cells, and no table is nested in it.
    var th = Array.prototype.filter.call(tr.cells, function (c) { return c.tagName === 'TH'; })[0];
    if (tr.querySelector('table')) return;
    var inputs = Array.prototype.filter.call(tr.querySelectorAll('input'), isText);
    if (th && inputs.length === 1 && visible(tr)) rows.push({ header: clean(th.textContent), value: inputs[0].value, box: box(inputs[0]) });
  });

  var publisher = null;
  each('input[placeholder]', function (el) { if (!publisher && isText(el) && clean(el.placeholder) === 'Publisher' && visible(el)) publisher = field(el); });
  var isbnEl = document.getElementById('isbn');
  var isbn = isText(isbnEl) && visible(isbnEl) ? field(isbnEl) : null;

  var buttons = [];
  var icons = [];
  each('button, input[type="submit"], input[type="button"]', function (b) {
    if (!visible(b)) return;
    var text = textOf(b);
    var svg = b.querySelector('svg');
    if (text === '' && svg && b.children.length === 1) icons.push({ markup: clean(svg.innerHTML), box: box(b) });
    else if (text !== '') buttons.push({ text: text, disabled: !!b.disabled, box: box(b) });
  });

  var shelves = [];
  each('table', function (table) {
    var head = table.rows[0];
    if (!head || !head.cells[0] || head.cells[0].tagName !== 'TH' || clean(head.cells[0].textContent) !== 'Shelf' || !visible(table)) return;
    for (var r = 1; r < table.rows.length; r++) {
      var row = table.rows[r];
      var assign = Array.prototype.filter.call(row.querySelectorAll('button'), function (b) { return textOf(b) === 'Assign'; })[0];
      shelves.push({ shelf: clean(row.cells[0] ? row.cells[0].textContent : ''), assign: assign ? box(assign) : null });
    }
  });
  var selectedShelf = null;
  each('p', function (p) {
    var m = /^Selected shelf: (.*)$/.exec(clean(p.textContent));
    if (m && visible(p)) selectedShelf = m[1] === 'none' ? null : m[1];
  });

  var progress = null;
  each('[role="progressbar"]', function (el) { if (progress === null && visible(el)) progress = Number(el.getAttribute('aria-valuenow')); });

  var textareas = [];
  each('textarea', function (el) { if (visible(el)) textareas.push({ label: labelOf(el), value: el.value, box: box(el) }); });
  var requiredUnchecked = [];
  each('input[type="checkbox"][required]', function (el) { if (!el.checked && visible(el)) requiredUnchecked.push({ label: labelOf(el), box: box(el) }); });

  var labelled = [];
  each('input[id], select[id]', function (el) {
    var type = el.tagName === 'SELECT' ? 'select' : (el.getAttribute('type') || 'text').toLowerCase();
    if (type === 'checkbox' || type === 'hidden' || !visible(el) || labelOf(el) === '') return;
    var options = el.tagName === 'SELECT' ? Array.prototype.map.call(el.options, function (o) { return { value: o.value, label: clean(o.label) }; }) : [];
    labelled.push({ label: labelOf(el), type: type, value: el.value, box: box(el), options: options });
  });

  return {
    labelled: labelled,
    viewport: { width: window.innerWidth, height: window.innerHeight },
    dialog: firstDialog(),
    loading: !!loadingEl && visible(loadingEl),
    heading: heading,
    confirmation: confirmationEl && visible(confirmationEl) ? clean(confirmationEl.textContent) : null,
    error: error,
    rows: rows,
    publisher: publisher,
    isbn: isbn,
    buttons: buttons,
    shelves: shelves,
    selectedShelf: selectedShelf,
    icons: icons,
    progress: progress,
    textareas: textareas,
    requiredUnchecked: requiredUnchecked
  };
})`;

export function catalogSnapshot(page: Page): Promise<CatalogSnapshot> {
  return evaluateSnapshot<CatalogSnapshot>(page, SNAPSHOT_SCRIPT, null);
}

/**
 * A scripted agent for the admin grid: decides every answer from the live DOM (one
 * page.evaluate per call, never a stored position) and answers one step per call.
 *
 *  a. a visible popup (role=dialog without a form, one button): click its button;
 *  b. "Customer saved" on the grid: done;
 *  c. the edit dialog is closed: put the name in the search box, else click Search until the
 *     grid shows exactly the wanted row, else click the link whose text is the name;
 *  d. the edit dialog is open: the first field that differs from its parameter, then VIP, then
 *     any unticked required checkbox, then Save;
 *  e. done.
 */
import type { Page } from 'playwright';
import type { Agent, AgentAnswer, Observation } from '../../../src/agent/agent.js';
import { clickOrScroll, DOM_HELPERS_JS, evaluateSnapshot, isTruthy, typeOver, type Box, type Viewport } from '../../../src/demo/agentKit.js';

type Field = { name: string; kind: 'text' | 'checkbox'; value: string; checked: boolean; box: Box | null };

type Snapshot = {
  viewport: Viewport;
  popup: { title: string; button: Box | null } | null;
  saved: boolean;
  search: { value: string; box: Box | null } | null;
  searchButton: Box | null;
  /** Names in the grid's rows, in order. */
  rows: string[];
  /** The visible link whose text is the wanted name. */
  link: Box | null;
  editor: { fields: Field[]; required: Box[]; save: Box | null } | null;
};

/**
 * Runs in the page. Plain JavaScript source, not a TypeScript function, so that no transpiler
 * helper (esbuild's `__name`) can leak into the browser. Takes the wanted customer name.
 */
const SNAPSHOT_SCRIPT = String.raw`(function (wantedName) {
  ${DOM_HELPERS_JS}
  var buttonsIn = function (root) {
    return Array.prototype.filter.call(root.querySelectorAll('button, input[type="submit"], input[type="button"], [role="button"]'), visible);
  };

  var popup = null;
  var editorEl = null;
  var dialogs = document.querySelectorAll('[role="dialog"], [role="alertdialog"]');
  for (var i = 0; i < dialogs.length; i++) {
    var d = dialogs[i];
    if (!visible(d)) continue;
    var form = d.querySelector('form');
    if (form) { if (!editorEl) editorEl = d; continue; }
    var buttons = buttonsIn(d);
    if (buttons.length === 1 && !popup) popup = { title: clean(d.getAttribute('aria-label') || d.textContent), button: box(buttons[0]) };
  }

  var saved = Array.prototype.some.call(document.querySelectorAll('[role="status"], div, p'), function (el) {
    return visible(el) && /^Customer saved\b/.test(textOf(el));
  });

  var search = null;
  var labels = document.querySelectorAll('label');
  for (var l = 0; l < labels.length; l++) {
    if (clean(labels[l].textContent) !== 'Customer name') continue;
    var input = labels[l].control;
    if (input) search = { value: input.value, box: box(input) };
    break;
  }
  var searchButton = null;
  var allButtons = buttonsIn(document);
  for (var b = 0; b < allButtons.length; b++) {
    if (textOf(allButtons[b]) === 'Search') { searchButton = box(allButtons[b]); break; }
  }

  var rows = [];
  var tables = document.querySelectorAll('table');
  for (var t = 0; t < tables.length; t++) {
    var head = tables[t].querySelector('tr');
    var ths = head ? head.querySelectorAll('th') : [];
    if (!ths.length || clean(ths[0].textContent) !== 'Name' || !visible(tables[t])) continue;
    var trs = tables[t].querySelectorAll('tr');
    for (var r = 0; r < trs.length; r++) {
      var cell = trs[r].querySelector('td');
      if (cell) rows.push(clean(cell.textContent));
    }
    break;
  }

  var link = null;
  var links = document.querySelectorAll('a');
  for (var a = 0; a < links.length; a++) {
    if (clean(links[a].textContent) === wantedName && visible(links[a])) { link = box(links[a]); break; }
  }

  var editor = null;
  if (editorEl) {
    var f = editorEl.querySelector('form');
    var fields = [];
    var required = [];
    for (var e = 0; e < f.elements.length; e++) {
      var el = f.elements[e];
      var type = (el.type || '').toLowerCase();
      if (el.tagName === 'INPUT' && type === 'checkbox') {
        if (el.required) { if (!el.checked && visible(el)) required.push(box(el)); continue; }
        fields.push({ name: el.name, kind: 'checkbox', value: '', checked: el.checked, box: box(el) });
      } else if ((el.tagName === 'INPUT' && ['text', 'email', 'tel', ''].indexOf(type) >= 0) || el.tagName === 'TEXTAREA') {
        fields.push({ name: el.name, kind: 'text', value: el.value, checked: false, box: box(el) });
      }
    }
    var save = null;
    var formButtons = buttonsIn(editorEl);
    for (var s = 0; s < formButtons.length; s++) {
      if (textOf(formButtons[s]) === 'Save') { save = box(formButtons[s]); break; }
    }
    editor = { fields: fields, required: required, save: save };
  }

  return {
    viewport: { width: window.innerWidth, height: window.innerHeight },
    popup: popup,
    saved: saved,
    search: search,
    searchButton: searchButton,
    rows: rows,
    link: link,
    editor: editor
  };
})`;

/** Form field name → parameter name, in the order the agent fills them. */
const FIELD_PARAMS: Record<string, string> = { phone: 'phone', email: 'email', city: 'city', vip: 'vip' };

const WAIT: AgentAnswer = { actions: [{ type: 'wait', ms: 500 }], intent: 'Wait for the page to finish loading' };

/** Decides the next answer from a snapshot; pure. */
export function decideGrid(snap: Snapshot, params: Record<string, string>): AgentAnswer {
  const { viewport } = snap;
  const name = params.customerName ?? '';

  // a. a popup in the way
  if (snap.popup?.button) return clickOrScroll(snap.popup.button, viewport, [], `Dismiss the "${snap.popup.title.slice(0, 50)}" popup`);

  // b. saved
  if (snap.saved && !snap.editor) return { done: true, answer: 'Customer saved' };

  // c. find the customer and open the editor
  if (!snap.editor) {
    if (!snap.search) return WAIT;
    if (snap.search.value !== name) {
      if (!snap.search.box) return WAIT;
      return clickOrScroll(snap.search.box, viewport, typeOver(snap.search.value, name), 'Type the customer name in "Customer name"');
    }
    if (snap.rows.length !== 1 || snap.rows[0] !== name) {
      if (!snap.searchButton) return WAIT;
      return clickOrScroll(snap.searchButton, viewport, [], 'Click "Search"');
    }
    if (!snap.link) return WAIT;
    return clickOrScroll(snap.link, viewport, [], `Open ${name}`);
  }

  // d. the edit dialog
  for (const field of snap.editor.fields) {
    const param = FIELD_PARAMS[field.name];
    if (param === undefined) continue;
    const wanted = params[param];
    if (wanted === undefined) continue;
    if (field.kind === 'text') {
      if (field.value === wanted) continue;
      if (!field.box) return WAIT;
      return clickOrScroll(field.box, viewport, typeOver(field.value, wanted), `Fill "${field.name}"`);
    }
    const want = isTruthy(wanted);
    if (field.checked === want) continue;
    if (!field.box) return WAIT;
    return clickOrScroll(field.box, viewport, [], `${want ? 'Check' : 'Uncheck'} "VIP customer"`);
  }
  const required = snap.editor.required[0];
  if (required) return clickOrScroll(required, viewport, [], 'Tick the required confirmation');
  if (snap.editor.save) return clickOrScroll(snap.editor.save, viewport, [], 'Click "Save"');

  // e.
  return { done: true, answer: 'Nothing left to do' };
}

/** The grid's scripted agent: reads the live DOM of `page` on every call. */
export function gridAgent(page: Page): Agent {
  let waits = 0;
  return {
    name: 'grid-agent (scripted, reads the DOM)',
    async next(observation: Observation): Promise<AgentAnswer> {
      const snap = await evaluateSnapshot<Snapshot>(page, SNAPSHOT_SCRIPT, observation.params.customerName ?? '');
      const answer = decideGrid(snap, observation.params);
      if (answer === WAIT && ++waits > 10) return { done: true, answer: 'The page never showed what the task needs' };
      return answer;
    },
  };
}

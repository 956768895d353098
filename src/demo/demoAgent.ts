/**
 * An honest offline stand-in for a model, for the demo and for tests: it decides every answer
 * from the live page's DOM at the time of the call, never from stored coordinates, and answers
 * one step per call (each call counts as one model call). It knows nothing about rote's cache.
 *
 * Policy, in order:
 *  a. a visible modal dialog: click its first button;
 *  b. a confirmation page (no intake form, "saved" in a heading or the title): done;
 *  c. the first mapped field, in form order, whose value differs from its parameter: set it;
 *  d. otherwise click the button labelled "Save";
 *  e. nothing fits: done.
 */
import type { Page } from 'playwright';
import type { ActionInput } from '../actions/action.js';
import type { Agent, AgentAnswer, Observation } from '../agent/agent.js';
import { clickOrScroll as kitClickOrScroll, DOM_HELPERS_JS, evaluateSnapshot, isTruthy, matchOption, typeOver, type Box, type Viewport } from './agentKit.js';

/** Parameter name → form field `name` attribute. */
export type FieldMap = Record<string, string>;

export const defaultFieldMap: FieldMap = {
  firstName: 'first_name',
  lastName: 'last_name',
  dob: 'dob',
  state: 'state',
  plan: 'plan',
  reminders: 'reminders',
  notes: 'notes',
};

export type DemoAgentOptions = { fields?: FieldMap };

type FieldSnapshot =
  | { kind: 'text'; name: string; label: string; value: string; placeholder: string; box: Box | null }
  | { kind: 'select'; name: string; label: string; value: string; options: { value: string; label: string }[]; box: Box | null }
  | { kind: 'radio'; name: string; label: string; options: { value: string; label: string; checked: boolean; box: Box | null }[] }
  | { kind: 'checkbox'; name: string; label: string; checked: boolean; box: Box | null };

type PageSnapshot = {
  viewport: Viewport;
  dialog: { text: string; button: Box | null } | null;
  hasForm: boolean;
  savedHeading: boolean;
  confirmation: string | null;
  /** Mapped fields present on the page, in form order. */
  fields: FieldSnapshot[];
  save: Box | null;
};

/**
 * Runs in the page. Kept as plain JavaScript source (not a TS function) so that no transpiler
 * helper (such as esbuild's `__name`) can leak into the browser. Takes the list of field names.
 */
const SNAPSHOT_SCRIPT = String.raw`(function (names) {
  ${DOM_HELPERS_JS}
  var labelOf = function (el) {
    var text = '';
    if (el.labels && el.labels.length) text = clean(el.labels[0].textContent);
    if (!text && el.getAttribute('aria-label')) text = clean(el.getAttribute('aria-label'));
    if (!text) {
      var by = el.getAttribute('aria-labelledby');
      if (by) text = clean(by.split(/\s+/).map(function (id) { var n = document.getElementById(id); return n ? n.textContent : ''; }).join(' '));
    }
    if (!text) text = clean(el.getAttribute('placeholder') || el.getAttribute('name'));
    return text.replace(/\s*[:*]+\s*$/, '');
  };
  var isButton = function (el) {
    var tag = el.tagName.toLowerCase();
    if (tag === 'button') return true;
    if (tag === 'input') { var t = (el.type || '').toLowerCase(); return t === 'submit' || t === 'button' || t === 'reset'; }
    return el.getAttribute('role') === 'button';
  };
  var buttonText = function (el) {
    return clean(el.tagName.toLowerCase() === 'input' ? el.value : el.textContent || el.getAttribute('aria-label'));
  };

  var dialog = null;
  var candidates = document.querySelectorAll('[role="dialog"], [role="alertdialog"], [aria-modal="true"], dialog[open]');
  for (var i = 0; i < candidates.length; i++) {
    var d = candidates[i];
    if (!visible(d)) continue;
    var title = '';
    var by = d.getAttribute('aria-labelledby');
    if (by) title = clean(by.split(/\s+/).map(function (id) { var n = document.getElementById(id); return n ? n.textContent : ''; }).join(' '));
    if (!title && d.getAttribute('aria-label')) title = clean(d.getAttribute('aria-label'));
    if (!title) { var h = d.querySelector('h1, h2, h3, h4, h5, h6'); if (h) title = clean(h.textContent); }
    if (!title) title = clean(d.textContent);
    var buttons = Array.prototype.filter.call(d.querySelectorAll('button, input, [role="button"]'), function (b) { return isButton(b) && visible(b); });
    dialog = { text: title, button: buttons.length ? box(buttons[0]) : null };
    break;
  }

  var wanted = {};
  names.forEach(function (n) { wanted[n] = true; });
  var form = null;
  var forms = document.forms;
  for (var f = 0; f < forms.length && !form; f++) {
    var els = forms[f].elements;
    for (var e = 0; e < els.length; e++) { if (wanted[els[e].name]) { form = forms[f]; break; } }
  }

  var fields = [];
  var seen = {};
  if (form) {
    var elements = form.elements;
    for (var k = 0; k < elements.length; k++) {
      var el = elements[k];
      var name = el.name;
      if (!name || !wanted[name] || seen[name]) continue;
      var tag = el.tagName.toLowerCase();
      var type = (el.type || '').toLowerCase();
      if (tag === 'select') {
        seen[name] = true;
        fields.push({ kind: 'select', name: name, label: labelOf(el), value: el.value,
          options: Array.prototype.map.call(el.options, function (o) { return { value: o.value, label: clean(o.label || o.textContent) }; }),
          box: box(el) });
      } else if (tag === 'textarea' || (tag === 'input' && ['text', 'email', 'tel', 'search', 'url', 'number', 'password', ''].indexOf(type) >= 0)) {
        seen[name] = true;
        fields.push({ kind: 'text', name: name, label: labelOf(el), value: el.value, placeholder: el.getAttribute('placeholder') || '', box: box(el) });
      } else if (tag === 'input' && type === 'radio') {
        seen[name] = true;
        var radios = Array.prototype.filter.call(elements, function (r) { return r.name === name && (r.type || '').toLowerCase() === 'radio'; });
        var group = el.closest('fieldset');
        var legend = group ? group.querySelector('legend') : null;
        fields.push({ kind: 'radio', name: name, label: legend ? clean(legend.textContent).replace(/\s*[:*]+\s*$/, '') : name,
          options: radios.map(function (r) { return { value: r.value, label: labelOf(r), checked: r.checked, box: box(r) }; }) });
      } else if (tag === 'input' && type === 'checkbox') {
        seen[name] = true;
        fields.push({ kind: 'checkbox', name: name, label: labelOf(el), checked: el.checked, box: box(el) });
      }
    }
  }

  var save = null;
  var all = document.querySelectorAll('button, input[type="submit"], input[type="button"], [role="button"]');
  for (var s = 0; s < all.length; s++) {
    if (isButton(all[s]) && buttonText(all[s]).toLowerCase() === 'save' && visible(all[s])) { save = box(all[s]); break; }
  }

  var headings = Array.prototype.map.call(document.querySelectorAll('h1, h2, h3'), function (h) { return clean(h.textContent); });
  var savedHeading = /\bsaved\b/i.test(document.title) || headings.some(function (h) { return /\bsaved\b/i.test(h); });
  var confirmation = null;
  if (savedHeading) {
    var blocks = document.querySelectorAll('p, [role="status"], [role="alert"], div, span, h1, h2, h3');
    for (var b = 0; b < blocks.length; b++) {
      var t = clean(blocks[b].textContent);
      if (/\bsaved\b/i.test(t) && t.split(' ').length > 2 && t.length < 300 && !blocks[b].querySelector('p, div, table')) { confirmation = t; break; }
    }
  }

  return {
    viewport: { width: window.innerWidth, height: window.innerHeight },
    dialog: dialog,
    hasForm: !!form,
    savedHeading: savedHeading,
    confirmation: confirmation,
    fields: fields,
    save: save
  };
})`;

function short(text: string, max = 60): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length <= max ? t : `${t.slice(0, max - 1).trimEnd()}…`;
}

/** A date parameter typed the way the field asks (placeholder MM/DD/YYYY or DD/MM/YYYY). */
function asFieldDate(value: string, placeholder: string): string {
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(value.trim());
  if (!iso) return value;
  const [, y, m, d] = iso as unknown as [string, string, string, string];
  const mm = m.padStart(2, '0');
  const dd = d.padStart(2, '0');
  const p = placeholder.toUpperCase();
  if (p.includes('MM/DD/YYYY')) return `${mm}/${dd}/${y}`;
  if (p.includes('DD/MM/YYYY')) return `${dd}/${mm}/${y}`;
  return value;
}

/**
 * The kit's click-or-scroll with the demo agent's own scroll, which also moves vertically when
 * only x is off-screen (see ScrollStyle), so that its answers stay what they always were.
 */
function clickOrScroll(box: Box | null, viewport: Viewport, rest: ActionInput[], intent: string): AgentAnswer | null {
  return kitClickOrScroll(box, viewport, rest, intent, { alwaysScrollY: true });
}

/** Decides the next answer from a DOM snapshot; pure, for testing without a browser. */
export function decide(snap: PageSnapshot, params: Record<string, string>, fields: FieldMap): AgentAnswer {
  const { viewport } = snap;

  // a. a modal in the way
  if (snap.dialog?.button) {
    const answer = clickOrScroll(snap.dialog.button, viewport, [], `Dismiss the "${short(snap.dialog.text)}" popup`);
    if (answer) return answer;
  }

  // b. the confirmation page
  if (!snap.hasForm && snap.savedHeading) {
    return { done: true, answer: snap.confirmation ?? 'Saved' };
  }

  // c. the first field that does not hold its parameter yet
  const paramOf = paramsByFieldName(params, fields);
  for (const field of snap.fields) {
    const wanted = paramOf.get(field.name);
    if (wanted === undefined) continue;
    const answer = setField(field, wanted, viewport);
    if (answer) return answer;
  }

  // d. submit
  if (snap.hasForm && snap.save) {
    const answer = clickOrScroll(snap.save, viewport, [], 'Submit the form');
    if (answer) return answer;
  }

  // e.
  return { done: true, answer: 'Nothing left to do' };
}

/** The parameter value each field name should hold; when two parameters map to one field, the first one given wins. */
function paramsByFieldName(params: Record<string, string>, fields: FieldMap): Map<string, string> {
  const paramOf = new Map<string, string>();
  for (const [param, name] of Object.entries(fields)) {
    const value = params[param];
    if (value !== undefined && !paramOf.has(name)) paramOf.set(name, value);
  }
  return paramOf;
}

/**
 * The answer that makes `field` hold `wanted` (or says it cannot), or null when there is nothing
 * to do for it: it already holds the value, or it is not visible (no box).
 */
function setField(field: FieldSnapshot, wanted: string, viewport: Viewport): AgentAnswer | null {
  switch (field.kind) {
    case 'text': {
      const text = asFieldDate(wanted, field.placeholder);
      if (field.value === text) return null;
      return clickOrScroll(field.box, viewport, typeOver(field.value, text), `Fill "${field.label}"`);
    }
    case 'select': {
      const option = matchOption(field.options.filter((o) => o.value !== ''), wanted);
      if (!option) return { done: true, answer: `Cannot choose "${wanted}" in "${field.label}": no such option` };
      if (field.value === option.value) return null;
      return clickOrScroll(field.box, viewport, [{ type: 'type', text: option.label }], `Choose "${field.label}"`);
    }
    case 'radio': {
      const option = matchOption(field.options, wanted);
      if (!option) return { done: true, answer: `Cannot choose "${wanted}" for "${field.label}": no such option` };
      if (option.checked) return null;
      return clickOrScroll(option.box, viewport, [], `Choose "${option.label}" for "${field.label}"`);
    }
    case 'checkbox': {
      const want = isTruthy(wanted);
      if (field.checked === want) return null;
      return clickOrScroll(field.box, viewport, [], `${want ? 'Check' : 'Uncheck'} "${field.label}"`);
    }
  }
}

/**
 * The demo agent: reads the live DOM of `page` on every call (the observation's screenshot is
 * not used) and answers with actions at the centres of the elements' bounding boxes.
 */
export function demoAgent(page: Page, options: DemoAgentOptions = {}): Agent {
  const fields = options.fields ?? defaultFieldMap;
  const names = [...new Set(Object.values(fields))];
  return {
    name: 'demo-agent (offline, reads the DOM)',
    async next(observation: Observation): Promise<AgentAnswer> {
      const snap = await evaluateSnapshot<PageSnapshot>(page, SNAPSHOT_SCRIPT, names);
      return decide(snap, observation.params, fields);
    },
  };
}

export type { PageSnapshot as DemoPageSnapshot };

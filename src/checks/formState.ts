import type { Page } from 'playwright';
import { withinDeadline, type Deadline } from '../progress/deadline.js';

/**
 * What a form held when the run found it, read at the first input of the run that reached it (a
 * press, a key, a focus), before any of it landed: a box ticked, a select's choice, a field filled
 * or empty. A step that sends a form is replayed only when the form was found as it was when that
 * step was recorded: a box the page now loads ticked (an "urgent" flag) would otherwise go out with
 * a value no step of the path chose. What the page sets in answer to the run (a state picked from
 * the ZIP code typed) is not in it, so new values do not count as change; the controls the run set
 * itself are left out, as the path sets them whatever they held.
 *
 * Each control is known by its tag, type, name and its place among the form's controls of that
 * tag, type and name (a name that looks generated is left out, so only the place counts); its state
 * says nothing of its value (a field is `filled`, not what it holds; a select is the place of its
 * choice), so no value, and no secret, is ever stored.
 */
export type FormControlState = { key: string; state: string };

/**
 * In-page: what a page sends as one form. A `<form>`; else, for a page that sends by script from
 * divs, the nearest ancestor that holds both a button and a control other than `el` (the same
 * from any field of it and from its Submit). Null where there is none.
 */
export const FORM_OF_JS = String.raw`function (el) {
  var owner = el.form || el.closest('form');
  if (owner) return owner;
  var VALUE = 'input:not([type=hidden]):not([type=submit]):not([type=button]):not([type=reset]):not([type=image]), select, textarea, [role=switch], [role=checkbox], [role=radio]';
  var BUTTON = 'button, input[type=submit], input[type=button], input[type=image], [role=button]';
  for (var a = el.parentElement; a && a !== document.documentElement; a = a.parentElement) {
    var others = Array.prototype.some.call(a.querySelectorAll(VALUE), function (c) { return c !== el; });
    if (others && a.querySelector(BUTTON)) return a;
  }
  return null;
}`;

/**
 * In-page: a form's controls and their states, native and ARIA (a switch, a checkbox drawn with
 * divs). Disabled ones are counted before they are left out (they are not sent), so that a
 * control's place does not depend on which others are enabled. Source text (see perform.ts), also
 * run by the change log at a form's first input (pageChanges.ts).
 */
export const READ_FORM_JS = String.raw`function (form, shown) {
  var log = window.__roteChangeLog;
  // A radio picked changes its group's others with no event of theirs.
  var touched = function (c, form) {
    if (!log || !log.touched) return false;
    if (log.touched.has(c)) return true;
    return c.type === 'radio' && c.name !== '' && Array.prototype.some.call(form.querySelectorAll('input[type=radio]'), function (o) { return o.name === c.name && log.touched.has(o); });
  };
  var controls = Array.prototype.slice.call(form.querySelectorAll('input, select, textarea, [role=switch], [role=checkbox], [role=radio]'));
  if (form.tagName === 'FORM') Array.prototype.forEach.call(form.elements, function (c) { if (controls.indexOf(c) < 0) controls.push(c); });
  var seen = {}, out = [];
  for (var i = 0; i < controls.length; i++) {
    var c = controls[i], tag = c.tagName.toLowerCase(), native = tag === 'input' || tag === 'select' || tag === 'textarea';
    var type = tag === 'input' ? (c.getAttribute('type') || 'text').toLowerCase() : tag === 'select' ? (c.multiple ? 'multiple' : 'one') : native ? '' : c.getAttribute('role');
    if (/^(hidden|submit|button|reset|image|file)$/.test(type)) continue;
    var name = native ? c.getAttribute('name') || '' : '';
    if (/\d{4,}|[0-9a-f]{8,}/i.test(name)) name = '';
    var base = (native ? tag : 'aria') + ':' + type + ':' + name;
    var n = seen[base] = (seen[base] || 0) + 1;
    if (native ? c.disabled : c.getAttribute('aria-disabled') === 'true') continue;
    var state = !native ? ({ 'true': 'on', 'mixed': 'mixed' })[c.getAttribute('aria-checked')] || 'off'
      : type === 'checkbox' || type === 'radio' ? (c.checked ? 'on' : 'off')
      : tag === 'select' ? 'choice ' + Array.prototype.map.call(c.selectedOptions, function (o) { return o.index; }).join(',')
      : (c.value === '' ? 'empty' : 'filled');
    out.push({ key: base + ':' + n, state: state, touched: touched(c, form), shown: !!shown && shown.indexOf(c) >= 0 });
  }
  return out;
}`;

/** In-page: the form a step at `at` (or, null, by Enter where the focus is) sends, as the run found it. */
const FORM_STATE_JS = String.raw`function (at, watched) {
  var el = at ? document.elementFromPoint(at.x, at.y) : document.activeElement;
  if (!el) return null;
  var control = el.closest('button, input, select, textarea, [role=button]');
  if (!control) return null;
  var tag = control.tagName.toLowerCase(), type = (control.getAttribute('type') || '').toLowerCase();
  // Any button may send a form (a script's Save sends it by fetch); Reset sends nothing. Enter
  // sends from a field or a focused button.
  var sends = at ? (tag === 'button' && type !== 'reset') || (tag === 'input' && /^(submit|image|button)$/.test(type)) || control.getAttribute('role') === 'button'
                 : tag === 'input' || tag === 'button';
  if (!sends) return null;
  var form = (${FORM_OF_JS})(control);
  if (!form) return null;
  var log = window.__roteChangeLog;
  var now = (${READ_FORM_JS})(form);
  var found = (log && log.formsAsFound && log.formsAsFound.get(form)) || now;
  // The controls the run set by now are left out: the path sets them, whatever they were found holding.
  var set = {};
  now.forEach(function (c) { if (c.touched) set[c.key] = true; });
  // So are the controls that show a parameter's value (watched): the watch compares them with this run's value.
  var shown = [];
  watched.forEach(function (selector) { try { var w = document.querySelector(selector); if (w) shown.push(w); } catch (e) {} });
  if (shown.length > 0) (${READ_FORM_JS})(form, shown).forEach(function (c) { if (c.shown) set[c.key] = true; });
  return found.filter(function (c) { return !set[c.key]; }).map(function (c) { return { key: c.key, state: c.state }; });
}`;

/**
 * The form a step would send (by a click on one of its buttons at `at`, or, null, by Enter where
 * the focus is) as the run found it: read at the run's first input into it, or now if none came,
 * without the controls the run set and those `watched` (selectors of controls that show a
 * parameter's value: the watch of docs/checks.md, "No silent old values", compares them).
 * Undefined when there is no such form or the page cannot be asked (a frame's or a shadow root's
 * form is not looked into).
 */
export async function untouchedFormState(page: Page, at: { x: number; y: number } | null, watched: readonly string[], deadline: Deadline): Promise<FormControlState[] | undefined> {
  try {
    const found = await withinDeadline(deadline, page.evaluate(`(${FORM_STATE_JS})(${JSON.stringify(at)}, ${JSON.stringify(watched)})`), 'reading the form the step sends');
    return Array.isArray(found) ? (found as FormControlState[]) : undefined;
  } catch {
    return undefined;
  }
}

/** How one control is named in a message: `checkbox "urgent"`, or `the 2nd unnamed checkbox`. */
function describeControl(key: string): string {
  // A name may hold colons itself (JSF's "form:subject"): tag and type come first, the place last.
  const parts = key.split(':');
  const [tag, type] = parts;
  const place = parts.at(-1);
  const name = parts.slice(2, -1).join(':');
  const kind = tag === 'input' || tag === 'aria' ? type! : tag === 'select' ? 'select' : tag!;
  return name ? `${kind} "${name}"${place !== '1' ? ` (number ${place})` : ''}` : `unnamed ${kind} number ${place}`;
}

/**
 * Why the form may not be sent from the cache: the controls it was found with in another state than
 * when recorded. Controls in only one of the two (one added since) are not compared.
 */
export function formDifference(recorded: readonly FormControlState[], live: readonly FormControlState[]): string | undefined {
  const now = new Map(live.map((control) => [control.key, control.state]));
  const changed = recorded.filter((control) => now.has(control.key) && now.get(control.key) !== control.state);
  if (changed.length === 0) return undefined;
  const listed = changed.slice(0, 3).map((control) => `${describeControl(control.key)} is ${now.get(control.key)!} (was ${control.state})`);
  return `the form this step sends was found, before the run's first input into it, otherwise than when recorded: ${listed.join(', ')}${changed.length > 3 ? ` and ${changed.length - 3} more` : ''}; sending it from the cache could send a value no step chose`;
}

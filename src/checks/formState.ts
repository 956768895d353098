import type { Page } from 'playwright';
import { withinDeadline, type Deadline } from '../progress/deadline.js';

/**
 * What a form holds in the controls that nothing in the run set (no input or change event reached
 * them): a box ticked, a select's choice, a field filled or empty. A step that sends a form is
 * replayed only when those are as they were when it was recorded: a box the page now loads ticked
 * (an "urgent" flag) would otherwise go out with a value no step of the path chose.
 *
 * Each control is known by its tag, type, name and its place among the form's controls of that
 * tag, type and name; its state says nothing of its value (a field is `filled`, not what it holds;
 * a select is the place of its choice), so no value, and no secret, is ever stored.
 */
export type FormControlState = { key: string; state: string };

/** In-page: the form a step sends, and its untouched controls. Source text (see perform.ts). */
const FORM_STATE_JS = String.raw`function (at) {
  var el = at ? document.elementFromPoint(at.x, at.y) : document.activeElement;
  if (!el) return null;
  var control = el.closest('button, input, select, textarea, [role=button]');
  if (!control) return null;
  var tag = control.tagName.toLowerCase(), type = (control.getAttribute('type') || '').toLowerCase();
  // A click sends a form through a button; a key press (Enter) through the field that holds the focus.
  // Any button of a form may send it (a script's Save sends it by fetch); Reset sends nothing.
  var sends = at ? (tag === 'button' && type !== 'reset') || (tag === 'input' && /^(submit|image|button)$/.test(type)) || control.getAttribute('role') === 'button'
                 : tag === 'input';
  if (!sends) return null;
  var form = control.form || control.closest('form');
  if (!form) return null;
  var log = window.__roteChangeLog;
  var touched = function (c) {
    if (!log || !log.touched) return false;
    if (log.touched.has(c)) return true;
    // A radio picked changes its group's others with no event of theirs.
    return c.type === 'radio' && c.name !== '' && Array.prototype.some.call(form.elements, function (o) { return o.type === 'radio' && o.name === c.name && log.touched.has(o); });
  };
  var seen = {}, out = [];
  for (var i = 0; i < form.elements.length; i++) {
    var c = form.elements[i], ctag = c.tagName.toLowerCase();
    var ctype = ctag === 'input' ? (c.getAttribute('type') || 'text').toLowerCase() : ctag === 'select' ? (c.multiple ? 'multiple' : 'one') : '';
    if (ctag !== 'input' && ctag !== 'select' && ctag !== 'textarea') continue;
    if (/^(hidden|submit|button|reset|image|file)$/.test(ctype)) continue;
    var base = ctag + ':' + ctype + ':' + (c.getAttribute('name') || '');
    var n = seen[base] = (seen[base] || 0) + 1;
    if (c.disabled || touched(c)) continue;
    var state = ctype === 'checkbox' || ctype === 'radio' ? (c.checked ? 'on' : 'off')
      : ctag === 'select' ? 'choice ' + Array.prototype.map.call(c.selectedOptions, function (o) { return o.index; }).join(',')
      : (c.value === '' ? 'empty' : 'filled');
    out.push({ key: base + ':' + n, state: state });
  }
  return out;
}`;

/**
 * The untouched controls of the form a step would send: by a click on one of its buttons at `at`,
 * or (null) by Enter in its field that holds the focus. Undefined when there is no such form or
 * the page cannot be asked (a frame's or a shadow root's form is not looked into).
 */
export async function untouchedFormState(page: Page, at: { x: number; y: number } | null, deadline: Deadline): Promise<FormControlState[] | undefined> {
  try {
    const found = await withinDeadline(deadline, page.evaluate(`(${FORM_STATE_JS})(${JSON.stringify(at)})`), 'reading the form the step sends');
    return Array.isArray(found) ? (found as FormControlState[]) : undefined;
  } catch {
    return undefined;
  }
}

/** How one control is named in a message: `checkbox "urgent"`, or `the 2nd unnamed checkbox`. */
function describeControl(key: string): string {
  const [tag, type, name, place] = key.split(':');
  const kind = tag === 'input' ? type! : tag === 'select' ? 'select' : tag!;
  return name ? `${kind} "${name}"${place !== '1' ? ` (number ${place})` : ''}` : `unnamed ${kind} number ${place}`;
}

/**
 * Why the form as it is now may not be sent from the cache: the controls that hold, untouched,
 * another state than they held untouched when recorded. Controls in only one of the two (one the
 * run set, one added since) are not compared.
 */
export function formDifference(recorded: readonly FormControlState[], live: readonly FormControlState[]): string | undefined {
  const now = new Map(live.map((control) => [control.key, control.state]));
  const changed = recorded.filter((control) => now.has(control.key) && now.get(control.key) !== control.state);
  if (changed.length === 0) return undefined;
  const listed = changed.slice(0, 3).map((control) => `${describeControl(control.key)} is ${now.get(control.key)!} (was ${control.state})`);
  return `the form this step sends holds, in controls no step set, what it did not hold when recorded: ${listed.join(', ')}${changed.length > 3 ? ` and ${changed.length - 3} more` : ''}; sending it from the cache could send a value the task never chose`;
}

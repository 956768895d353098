/**
 * A scripted stand-in for a model on the intake form: every answer is decided from the live DOM
 * (one page.evaluate per call), never from stored coordinates, one field per answer.
 *
 * Policy, in order:
 *  a. a visible role=dialog: click its button;
 *  b. the confirmation page ("Record saved", no form): done;
 *  -  the form is there but nothing in it is visible yet (still loading): wait;
 *  c. the first field, in form order, whose value differs from its parameter: set it
 *     (text: click, select-all when non-empty, type; select: click, type the option's label;
 *     radio: click the matching one; checkbox: click when its state differs);
 *  d. an unchecked required checkbox: click it;
 *  e. the button whose text is exactly "Save": click it;
 *  f. done.
 * A target outside the viewport is answered with a scroll instead.
 */
import type { Page } from 'playwright';
import type { Agent, AgentAnswer, Observation } from '../../../src/agent/agent.js';
import { clickOrScroll, DOM_HELPERS_JS, evaluateSnapshot, FIRST_DIALOG_JS, isTruthy, matchOption, typeOver, type Box, type Viewport } from '../../../src/demo/agentKit.js';
import { FIELDS, type FieldKind } from './fields.js';

type FieldSnapshot =
  | { kind: 'text'; name: string; label: string; value: string; box: Box | null }
  | { kind: 'select'; name: string; label: string; value: string; options: { value: string; label: string }[]; box: Box | null }
  | { kind: 'radio'; name: string; label: string; options: { value: string; label: string; checked: boolean; box: Box | null }[] }
  | { kind: 'checkbox'; name: string; label: string; checked: boolean; box: Box | null };

export type IntakeSnapshot = {
  viewport: Viewport;
  dialog: { text: string; button: Box | null } | null;
  confirmation: string | null;
  hasForm: boolean;
  /** Some control of the form is visible (false while a slow page is still loading). */
  formVisible: boolean;
  /** The form's fields that map to a parameter, in form order. */
  fields: FieldSnapshot[];
  requiredUnchecked: { label: string; box: Box | null } | null;
  save: Box | null;
};

/**
 * Runs in the page. Plain JavaScript source, not a TS function, so that no transpiler helper
 * (esbuild's `__name`) can leak into the browser. Takes { name: kind } of the mapped fields.
 */
const SNAPSHOT_SCRIPT = String.raw`(function (kinds) {
  ${DOM_HELPERS_JS}
  ${FIRST_DIALOG_JS}
  var labelOf = function (el) {
    var text = el.labels && el.labels.length ? clean(el.labels[0].textContent) : '';
    if (!text) {
      var by = el.getAttribute('aria-labelledby');
      if (by) text = clean(by.split(/\s+/).map(function (id) { var n = document.getElementById(id); return n ? n.textContent : ''; }).join(' '));
    }
    if (!text) text = clean(el.getAttribute('aria-label') || el.getAttribute('name'));
    return text.replace(/\s*[:*]+\s*$/, '');
  };

  var dialog = firstDialog();

  var form = null;
  for (var f = 0; f < document.forms.length && !form; f++) {
    var els = document.forms[f].elements;
    for (var e = 0; e < els.length; e++) { if (kinds[els[e].name]) { form = document.forms[f]; break; } }
  }

  var confirmation = null;
  if (!form) {
    var h = document.querySelector('h1');
    if (h && /^record saved$/i.test(clean(h.textContent))) {
      var p = document.getElementById('confirmation');
      confirmation = p ? clean(p.textContent) : clean(h.textContent);
    }
  }

  var fields = [];
  var requiredUnchecked = null;
  var formVisible = false;
  if (form) {
    var seen = {};
    var elements = form.elements;
    for (var k = 0; k < elements.length; k++) {
      var el = elements[k];
      if (visible(el)) formVisible = true;
      var type = (el.type || '').toLowerCase();
      if (type === 'checkbox' && el.required && !el.checked && !requiredUnchecked) requiredUnchecked = { label: labelOf(el), box: box(el) };
      var name = el.name;
      var kind = kinds[name];
      if (!kind || seen[name]) continue;
      seen[name] = true;
      if (kind === 'select') {
        fields.push({ kind: 'select', name: name, label: labelOf(el), value: el.value,
          options: Array.prototype.map.call(el.options, function (o) { return { value: o.value, label: clean(o.label || o.textContent) }; }),
          box: box(el) });
      } else if (kind === 'radio') {
        var group = Array.prototype.filter.call(elements, function (r) { return r.name === name && (r.type || '').toLowerCase() === 'radio'; });
        var holder = el.closest('[role="radiogroup"]');
        fields.push({ kind: 'radio', name: name, label: holder ? labelOf(holder) : name,
          options: group.map(function (r) { return { value: r.value, label: labelOf(r), checked: r.checked, box: box(r) }; }) });
      } else if (kind === 'checkbox') {
        fields.push({ kind: 'checkbox', name: name, label: labelOf(el), checked: el.checked, box: box(el) });
      } else {
        fields.push({ kind: 'text', name: name, label: labelOf(el), value: el.value, box: box(el) });
      }
    }
  }

  var save = null;
  var all = document.querySelectorAll('button, input[type="submit"], input[type="button"], [role="button"]');
  for (var s = 0; s < all.length && !save; s++) {
    if (textOf(all[s]) === 'Save' && visible(all[s])) save = box(all[s]);
  }

  return { viewport: { width: window.innerWidth, height: window.innerHeight }, dialog: dialog, confirmation: confirmation,
    hasForm: !!form, formVisible: formVisible, fields: fields, requiredUnchecked: requiredUnchecked, save: save };
})`;

const KINDS: Record<string, Exclude<FieldKind, 'textarea'>> = Object.fromEntries(FIELDS.map((f) => [f.name, f.kind === 'textarea' ? 'text' : f.kind]));
const PARAM_OF_NAME = new Map(FIELDS.map((f) => [f.name, f.param]));

/** Decides the next answer from a snapshot; pure, so it can be tested without a browser. */
export function decideIntake(snap: IntakeSnapshot, params: Record<string, string>): AgentAnswer {
  const { viewport } = snap;

  // a. a modal in the way
  if (snap.dialog?.button) {
    const answer = clickOrScroll(snap.dialog.button, viewport, [], `Dismiss the "${snap.dialog.text.slice(0, 50)}" popup`);
    if (answer) return answer;
  }

  // b. the confirmation page
  if (snap.confirmation !== null) return { done: true, answer: snap.confirmation };

  // still loading
  if (snap.hasForm && !snap.formVisible) return { actions: [{ type: 'wait', ms: 500 }], intent: 'Wait for the form to appear' };

  // c. the first field that does not hold its parameter yet
  for (const field of snap.fields) {
    const param = PARAM_OF_NAME.get(field.name);
    const wanted = param === undefined ? undefined : params[param];
    if (wanted === undefined) continue;
    let answer: AgentAnswer | null = null;
    switch (field.kind) {
      case 'text': {
        if (field.value === wanted) continue;
        answer = clickOrScroll(field.box, viewport, typeOver(field.value, wanted), `Fill "${field.label}"`);
        break;
      }
      case 'select': {
        const option = matchOption(field.options.filter((o) => o.value !== ''), wanted);
        if (!option) return { done: true, answer: `Cannot choose "${wanted}" in "${field.label}": no such option` };
        if (field.value === option.value) continue;
        answer = clickOrScroll(field.box, viewport, [{ type: 'type', text: option.label }], `Choose "${option.label}" in "${field.label}"`);
        break;
      }
      case 'radio': {
        const option = matchOption(field.options, wanted);
        if (!option) return { done: true, answer: `Cannot choose "${wanted}" for "${field.label}": no such option` };
        if (option.checked) continue;
        answer = clickOrScroll(option.box, viewport, [], `Choose "${option.label}" for "${field.label}"`);
        break;
      }
      case 'checkbox': {
        const want = isTruthy(wanted);
        if (field.checked === want) continue;
        answer = clickOrScroll(field.box, viewport, [], `${want ? 'Check' : 'Uncheck'} "${field.label}"`);
        break;
      }
    }
    if (answer) return answer;
  }

  // d. a required checkbox nobody ticked
  if (snap.requiredUnchecked) {
    const answer = clickOrScroll(snap.requiredUnchecked.box, viewport, [], `Check "${snap.requiredUnchecked.label}"`);
    if (answer) return answer;
  }

  // e. save
  if (snap.save) {
    const answer = clickOrScroll(snap.save, viewport, [], 'Save the record');
    if (answer) return answer;
  }

  // f.
  return { done: true, answer: 'Nothing left to do' };
}

/** The intake agent for `page`: reads its DOM on every call; the observation's screenshot is not used. */
export function intakeAgent(page: Page): Agent {
  return {
    name: 'intake-agent (scripted, reads the DOM)',
    async next(observation: Observation): Promise<AgentAnswer> {
      return decideIntake(await evaluateSnapshot<IntakeSnapshot>(page, SNAPSHOT_SCRIPT, KINDS), observation.params);
    },
  };
}

/**
 * A scripted agent for the claim wizard that decides every answer from the live DOM (one
 * page.evaluate per call), never from stored coordinates, one step per answer:
 *  a. a visible role=dialog: click its button;
 *  b. the "Claim submitted" page: done;
 *  c. the first wizard field on the page whose value differs from its parameter: set it
 *     (text: click, select-all only if it holds text, type; select: click, type the option's
 *     label; checkbox: click when its state differs);
 *  d. an unchecked required checkbox: tick it;
 *  e. the page's "Next" or "Save" button, found by its text (never by its position);
 *  f. nothing fits: done.
 * Two guards a person would also have: while the page says "Loading, please wait" it waits, and
 * when an error is shown and no field needs changing it gives up instead of resubmitting.
 */
import type { Page } from 'playwright';
import type { Agent, AgentAnswer, Observation } from '../../../src/agent/agent.js';
import { clickOrScroll, DOM_HELPERS_JS, evaluateSnapshot, FIRST_DIALOG_JS, isTruthy, matchOption, typeOver, type Box, type Viewport } from '../../../src/demo/agentKit.js';
import { FIELD_OF_PARAM } from './data.js';

type Field =
  | { kind: 'text'; name: string; label: string; value: string; box: Box | null }
  | { kind: 'select'; name: string; label: string; value: string; options: { value: string; label: string }[]; box: Box | null }
  | { kind: 'checkbox'; name: string; label: string; checked: boolean; box: Box | null };

export type ClaimSnapshot = {
  viewport: Viewport;
  dialog: { text: string; button: Box | null } | null;
  loading: boolean;
  submitted: string | null;
  error: string | null;
  fields: Field[];
  required: { label: string; box: Box | null }[];
  button: { text: string; box: Box | null } | null;
};

/** Runs in the page; plain JavaScript source so no transpiler helper (esbuild's __name) leaks in. */
const SNAPSHOT_SCRIPT = String.raw`(function (names) {
  ${DOM_HELPERS_JS}
  ${FIRST_DIALOG_JS}
  var labelOf = function (el) {
    var text = el.labels && el.labels.length ? clean(el.labels[0].textContent) : '';
    if (!text) text = clean(el.getAttribute('aria-label') || el.getAttribute('name'));
    return text.replace(/\s*[:*]+\s*$/, '');
  };

  var dialog = firstDialog();

  var loadingEl = document.getElementById('slow-loading');
  var loading = !!loadingEl && visible(loadingEl);

  var submitted = null;
  var h1 = document.querySelector('h1');
  if (h1 && visible(h1) && /claim submitted/i.test(clean(h1.textContent))) {
    var conf = document.getElementById('confirmation');
    submitted = conf ? clean(conf.textContent) : clean(h1.textContent);
  }

  var error = null;
  var alerts = document.querySelectorAll('[role="alert"]');
  for (var a = 0; a < alerts.length && !error; a++) if (visible(alerts[a])) error = clean(alerts[a].textContent);

  var wanted = {};
  names.forEach(function (n) { wanted[n] = true; });
  var fields = [];
  var controls = document.querySelectorAll('input, select, textarea');
  for (var k = 0; k < controls.length; k++) {
    var el = controls[k];
    if (!wanted[el.name]) continue;
    var tag = el.tagName.toLowerCase();
    var type = (el.type || '').toLowerCase();
    if (tag === 'select') {
      fields.push({ kind: 'select', name: el.name, label: labelOf(el), value: el.value, box: box(el),
        options: Array.prototype.map.call(el.options, function (o) { return { value: o.value, label: clean(o.label || o.textContent) }; }) });
    } else if (tag === 'textarea' || (tag === 'input' && (type === 'text' || type === ''))) {
      fields.push({ kind: 'text', name: el.name, label: labelOf(el), value: el.value, box: box(el) });
    } else if (tag === 'input' && type === 'checkbox') {
      fields.push({ kind: 'checkbox', name: el.name, label: labelOf(el), checked: el.checked, box: box(el) });
    }
  }

  var required = [];
  var boxes = document.querySelectorAll('input[type="checkbox"][required]');
  for (var r = 0; r < boxes.length; r++) if (!boxes[r].checked && visible(boxes[r])) required.push({ label: labelOf(boxes[r]), box: box(boxes[r]) });

  var button = null;
  var candidates = document.querySelectorAll('button, input[type="submit"], input[type="button"], [role="button"]');
  for (var b = 0; b < candidates.length && !button; b++) {
    var t = textOf(candidates[b]);
    if ((t === 'Next' || t === 'Save') && visible(candidates[b])) button = { text: t, box: box(candidates[b]) };
  }

  return { viewport: { width: window.innerWidth, height: window.innerHeight }, dialog: dialog, loading: loading,
    submitted: submitted, error: error, fields: fields, required: required, button: button };
})`;

/** The decision for one snapshot; pure, so it can be tested without a browser. */
export function decide(snap: ClaimSnapshot, params: Record<string, string>): AgentAnswer {
  const { viewport } = snap;

  // a. a modal in the way
  if (snap.dialog?.button) return clickOrScroll(snap.dialog.button, viewport, [], `Dismiss the "${snap.dialog.text.slice(0, 50)}" popup`);

  // b. the confirmation page
  if (snap.submitted !== null) return { done: true, answer: snap.submitted };

  if (snap.loading) return { actions: [{ type: 'wait', ms: 500 }], intent: 'Wait for the page to load' };

  // c. the first field that does not hold its parameter yet
  const paramOfField = new Map<string, string>();
  for (const [param, field] of Object.entries(FIELD_OF_PARAM)) {
    const value = params[param];
    if (value !== undefined) paramOfField.set(field, value);
  }
  for (const field of snap.fields) {
    const wanted = paramOfField.get(field.name);
    if (wanted === undefined || !field.box) continue;
    if (field.kind === 'text') {
      if (field.value === wanted) continue;
      return clickOrScroll(field.box, viewport, typeOver(field.value, wanted), `Fill "${field.label}"`);
    }
    if (field.kind === 'select') {
      const option = matchOption(field.options.filter((o) => o.value !== ''), wanted);
      if (!option) return { done: true, answer: `Cannot choose "${wanted}" in "${field.label}": no such option` };
      if (field.value === option.value) continue;
      return clickOrScroll(field.box, viewport, [{ type: 'type', text: option.label }], `Choose "${option.label}" in "${field.label}"`);
    }
    const want = isTruthy(wanted);
    if (field.checked === want) continue;
    return clickOrScroll(field.box, viewport, [], `${want ? 'Check' : 'Uncheck'} "${field.label}"`);
  }

  // d. a required checkbox left unticked
  const required = snap.required.find((r) => r.box);
  if (required?.box) return clickOrScroll(required.box, viewport, [], `Check "${required.label}"`);

  // An error is shown and nothing is left to change: submitting again would not help.
  if (snap.error) return { done: true, answer: `Cannot continue: ${snap.error}` };

  // e. the page's button, by its text
  if (snap.button?.box) return clickOrScroll(snap.button.box, viewport, [], snap.button.text === 'Save' ? 'Save the claim' : 'Go to the next page');

  // f.
  return { done: true, answer: 'Nothing left to do' };
}

export function snapshot(page: Page): Promise<ClaimSnapshot> {
  return evaluateSnapshot<ClaimSnapshot>(page, SNAPSHOT_SCRIPT, Object.values(FIELD_OF_PARAM));
}

export function claimAgent(page: Page): Agent {
  return {
    name: 'claim-agent (scripted, reads the DOM)',
    async next(observation: Observation): Promise<AgentAnswer> {
      return decide(await snapshot(page), observation.params);
    },
  };
}

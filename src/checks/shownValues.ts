import type { Page } from 'playwright';

/** A form control that shows a parameter's value, named the way a replay finds it again. */
export type ShownValue = { param: string; selector: string; label: string };

/**
 * Runs in the page: how a control is named, by its `name` (and value, for a radio) or its `id`; one
 * function for every script here, so that a control is named alike wherever it is listed.
 */
const SELECTOR_OF = `function selectorOf(el) {
    var tag = el.tagName.toLowerCase();
    if (el.name) return tag + '[name="' + el.name.replace(/(["\\\\])/g, '\\\\$1') + '"]' + (el.type === 'radio' ? '[value="' + String(el.value).replace(/(["\\\\])/g, '\\\\$1') + '"]' : '');
    if (el.id) return '#' + CSS.escape(el.id);
    return null;
  }`;

/**
 * Runs in the page: for each parameter, the named form controls that show its value. A text
 * field or textarea holding it, a select whose chosen option's value or label is it, a radio
 * checked on it, or a checkbox whose label holds the parameter's name words and whose state is
 * its yes/no value. Controls are named by their `name` (and value, for radios) or `id`.
 */
const FIND_SHOWN = `(function (params) {
  function fold(s) { return String(s || '').toLowerCase().replace(/[^\\p{L}\\p{N}]+/gu, ' ').trim(); }
  function words(name) { return fold(name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/_/g, ' ')).split(' ').filter(Boolean); }
  var yes = ['true', 'yes', 'y', 'on', '1', 'checked'], no = ['false', 'no', 'n', 'off', '0', 'unchecked'];
  function bool(v) { v = String(v).trim().toLowerCase(); return yes.indexOf(v) >= 0 ? true : no.indexOf(v) >= 0 ? false : null; }
  function labelOf(el) { var l = el.labels && el.labels[0]; return fold(l ? l.textContent : el.getAttribute('aria-label') || ''); }
  ${SELECTOR_OF}
  var found = [];
  var controls = document.querySelectorAll('input, textarea, select');
  for (var p = 0; p < params.length; p++) {
    var param = params[p], value = String(param.value), folded = fold(value), b = bool(value), w = words(param.name);
    for (var i = 0; i < controls.length; i++) {
      var el = controls[i], type = (el.type || '').toLowerCase(), shows = false;
      if (el.disabled || type === 'hidden' || type === 'password') continue;
      if (el.tagName === 'SELECT') { var o = el.options[el.selectedIndex]; shows = !!o && folded !== '' && (fold(o.value) === folded || fold(o.label) === folded); }
      else if (type === 'checkbox') { var label = ' ' + labelOf(el) + ' '; shows = b !== null && el.checked === b && w.length > 0 && w.every(function (x) { return label.indexOf(' ' + x) >= 0; }); }
      else if (type === 'radio') { shows = el.checked && folded !== '' && (fold(el.value) === folded || labelOf(el) === folded); }
      else { shows = value.trim() !== '' && el.value === value; }
      var selector = shows ? selectorOf(el) : null;
      if (selector && document.querySelectorAll(selector).length === 1) found.push({ param: param.name, selector: selector, label: labelOf(el) });
    }
  }
  return found;
})`;

export async function shownValues(page: Page, params: Record<string, string>): Promise<ShownValue[]> {
  const list = Object.entries(params).map(([name, value]) => ({ name, value }));
  if (list.length === 0) return [];
  return ((await page.evaluate(`${FIND_SHOWN}(${JSON.stringify(list)})`).catch(() => [])) as ShownValue[]) ?? [];
}

/**
 * Runs in the page: the selectors (as FIND_SHOWN names them) of every form control there is now.
 * A value that a step makes show in a control that was there before it was set by the step; in
 * one that came with it (a new page, an edit dialog), it was already the record's.
 */
const LIST_CONTROLS = `(function () {
  ${SELECTOR_OF}
  var found = [];
  var controls = document.querySelectorAll('input, textarea, select');
  for (var i = 0; i < controls.length; i++) {
    var selector = selectorOf(controls[i]);
    if (selector) found.push(selector);
  }
  return found;
})()`;

export async function controlSelectors(page: Page): Promise<string[]> {
  return ((await page.evaluate(LIST_CONTROLS).catch(() => [])) as string[]) ?? [];
}

/**
 * Runs in the page: does the control (found again by its selector) show this value now? For a
 * checkbox, its state against the yes/no value; for a radio group, the checked one's value.
 */
const SHOWS_NOW = `(function (selector, value, isRadioGroup) {
  function fold(s) { return String(s || '').toLowerCase().replace(/[^\\p{L}\\p{N}]+/gu, ' ').trim(); }
  var yes = ['true', 'yes', 'y', 'on', '1', 'checked'], no = ['false', 'no', 'n', 'off', '0', 'unchecked'];
  var v = String(value).trim().toLowerCase(), b = yes.indexOf(v) >= 0 ? true : no.indexOf(v) >= 0 ? false : null;
  var el = document.querySelector(selector);
  if (!el) return 'absent';
  var type = (el.type || '').toLowerCase();
  if (type === 'radio') {
    var group = document.querySelectorAll('input[type=radio][name="' + el.name.replace(/(["\\\\])/g, '\\\\$1') + '"]');
    for (var i = 0; i < group.length; i++) if (group[i].checked) { var l = group[i].labels && group[i].labels[0]; return fold(group[i].value) === fold(value) || (l && fold(l.textContent) === fold(value)) ? 'yes' : 'no'; }
    return 'no';
  }
  if (el.tagName === 'SELECT') { var o = el.options[el.selectedIndex]; return o && (fold(o.value) === fold(value) || fold(o.label) === fold(value)) ? 'yes' : 'no'; }
  if (type === 'checkbox') return b !== null && el.checked === b ? 'yes' : 'no';
  return el.value === String(value) ? 'yes' : 'no';
})`;

/** 'yes' when the control shows `value`, 'no' when it shows something else, 'absent' when it is gone. */
export async function showsValueNow(page: Page, selector: string, value: string): Promise<'yes' | 'no' | 'absent'> {
  const radioGroup = selector.includes('[value=');
  const groupSelector = radioGroup ? selector.replace(/\[value="(?:[^"\\]|\\.)*"\]$/, '') : selector;
  return ((await page.evaluate(`${SHOWS_NOW}(${JSON.stringify(groupSelector)}, ${JSON.stringify(value)}, ${radioGroup})`).catch(() => 'absent')) ?? 'absent') as
    | 'yes'
    | 'no'
    | 'absent';
}

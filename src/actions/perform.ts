import type { Page } from 'playwright';
import type { Action } from './action.js';
import { RoteError } from '../errors/roteError.js';
import { playwrightChord } from './keys.js';
import { deadlineIn, remainingMs, type Deadline } from '../progress/deadline.js';

/** A navigation that takes longer than this is stuck, whatever the run's deadline. */
const GOTO_LIMIT_MS = 30_000;

/** How a `type` step reaches the focused control on replay. */
export type TypeMode =
  /** Key presses appended at the caret, exactly as recorded. */
  | 'keys'
  /** The control was empty when recorded: its text is selected first, so typing replaces it (idempotent). */
  | 'replace'
  /** A <select>: the option whose label or value matches the text is chosen, never a keystroke guess. */
  | 'select'
  /**
   * A date, time, month or week input: its value is set from the text (ISO, as the control holds
   * it), whatever keys the recording pressed in the browser's locale-dependent segments.
   */
  | 'value';

/**
 * Runs one action on the page, as a person would: a click first moves the pointer to the
 * target (hover states apply). Coordinates are viewport CSS pixels.
 */
export async function performAction(page: Page, action: Action, typeMode: TypeMode = 'keys', deadline: Deadline = deadlineIn(GOTO_LIMIT_MS)): Promise<void> {
  switch (action.type) {
    case 'click':
      await page.mouse.move(action.x, action.y);
      await page.mouse.click(action.x, action.y, { button: action.button });
      return;
    case 'double_click':
      await page.mouse.move(action.x, action.y);
      await page.mouse.dblclick(action.x, action.y);
      return;
    case 'type':
      await typeText(page, action.text, typeMode);
      return;
    case 'keypress':
      await page.keyboard.press(playwrightChord(action.keys));
      return;
    case 'scroll':
      await page.mouse.move(action.x, action.y);
      await page.mouse.wheel(action.scroll_x, action.scroll_y);
      return;
    case 'drag': {
      const [first, ...rest] = action.path;
      if (!first) return;
      await page.mouse.move(first.x, first.y);
      await page.mouse.down();
      for (const point of rest) await page.mouse.move(point.x, point.y, { steps: 4 });
      await page.mouse.up();
      return;
    }
    case 'move':
      await page.mouse.move(action.x, action.y);
      return;
    case 'wait':
      // Only while recording (the agent chose to wait): a replay waits for what the page had to show, never for time.
      await page.waitForTimeout(remainingMs(deadline, action.ms));
      return;
    case 'goto':
      await page.goto(action.url, { waitUntil: 'domcontentloaded', timeout: Math.max(1, remainingMs(deadline, GOTO_LIMIT_MS)) });
      return;
    case 'tool':
      // A tool call runs user code with its checks around it: the engine does it (src/engine/toolStep.ts).
      throw new RoteError('internal', `performAction: tool "${action.name}" is a custom tool call, which the engine makes; it is not a page action`);
  }
}

async function typeText(page: Page, text: string, mode: TypeMode): Promise<void> {
  switch (mode) {
    case 'keys':
      await page.keyboard.type(text);
      return;
    case 'replace':
      // Select-all works in every text control and in contenteditable, where element.select() does not.
      await page.keyboard.press('ControlOrMeta+a');
      if (text === '') await page.keyboard.press('Delete');
      else await page.keyboard.type(text);
      return;
    case 'select':
      await selectFocusedOption(page, text);
      return;
    case 'value':
      await setFocusedValue(page, text);
      return;
  }
}

const SET_FOCUSED_VALUE = `(function (wanted) {
  var input = document.activeElement;
  if (!(input instanceof HTMLInputElement)) return { ok: false, why: 'the focused element is no longer an input' };
  input.value = wanted;
  if (input.value !== wanted) return { ok: false, why: 'the ' + input.type + ' input does not accept ' + JSON.stringify(wanted) };
  input.dispatchEvent(new Event('input', { bubbles: true }));
  input.dispatchEvent(new Event('change', { bubbles: true }));
  return { ok: true };
})`;

/** Sets the focused date-like input to an ISO value, as its own picker would. */
async function setFocusedValue(page: Page, text: string): Promise<void> {
  const set = (await page.evaluate(`${SET_FOCUSED_VALUE}(${JSON.stringify(text)})`)) as { ok: boolean; why?: string };
  if (!set.ok) throw new Error(set.why);
}

/**
 * Runs in the page with the text to choose. A string, not a function: bundlers that rename
 * or wrap inner functions (esbuild's keepNames) would break a serialized closure.
 */
const SELECT_FOCUSED_OPTION = `(function (wanted, dryRun) {
  var select = document.activeElement;
  if (!(select instanceof HTMLSelectElement)) return { ok: false, why: 'the focused element is no longer a <select>' };
  var fold = function (value) { return value.toLowerCase().replace(/[^\\p{L}\\p{N}]+/gu, ' ').trim(); };
  var options = Array.prototype.slice.call(select.options);
  var w = fold(wanted);
  // The wanted words start the label: "evening" for "Evening (6-9 PM)". Only the label may be
  // longer: "Washington" is not the option for "Washington DC".
  var startsWith = function (long, short) { return short !== '' && long.indexOf(short + ' ') === 0; };
  var lower = function (value) { return String(value).trim().toLowerCase(); };
  // Tried from the strictest reading to the loosest; the first that finds options decides, and it
  // must find one: "A-" folds like "A+" (blood types), so a loose reading that fits both is no answer.
  var readings = [
    function (o) { return o.value === wanted; },
    function (o) { return o.label === wanted; },
    function (o) { return lower(o.value) === lower(wanted) || lower(o.label) === lower(wanted); },
    function (o) { return w !== '' && (fold(o.value) === w || fold(o.label) === w); },
    function (o) { return startsWith(fold(o.label), w); },
  ];
  var match, several;
  for (var i = 0; i < readings.length && !match && !several; i++) {
    var found = options.filter(readings[i]);
    var values = found.map(function (o) { return o.value; }).filter(function (v, k, all) { return all.indexOf(v) === k; });
    if (values.length === 1) match = found[0];
    else if (values.length > 1) several = found;
  }
  if (several) return { ok: false, why: 'several options match ' + JSON.stringify(wanted) + ' (' + several.map(function (o) { return o.label; }).join(', ') + ')' };
  if (!match) return { ok: false, why: 'no option matches ' + JSON.stringify(wanted) + ' (options: ' + options.map(function (o) { return o.label; }).join(', ') + ')' };
  if (dryRun) return { ok: true };
  select.value = match.value;
  select.dispatchEvent(new Event('input', { bubbles: true }));
  select.dispatchEvent(new Event('change', { bubbles: true }));
  return { ok: true };
})`;

/**
 * Whether the focused <select> has the option `text` would choose, without choosing it: a replay
 * whose new value names no option hands over before acting, instead of failing halfway.
 */
export async function focusedSelectHasOption(page: Page, text: string): Promise<boolean> {
  const found = (await page.evaluate(`${SELECT_FOCUSED_OPTION}(${JSON.stringify(text)}, true)`).catch(() => ({ ok: false }))) as { ok: boolean };
  return found.ok;
}

/**
 * Chooses the one option of the focused <select> that the text names: by its value or label as
 * it is, then case aside, then punctuation aside, then by the words its label starts with. A
 * reading that fits several options is refused rather than taking the first.
 */
async function selectFocusedOption(page: Page, text: string): Promise<void> {
  const chosen = (await page.evaluate(`${SELECT_FOCUSED_OPTION}(${JSON.stringify(text)})`)) as { ok: boolean; why?: string };
  if (!chosen.ok) throw new Error(chosen.why);
}

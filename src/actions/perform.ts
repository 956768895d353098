import type { Page } from 'playwright';
import type { Action } from './action.js';
import { RoteError } from '../errors/roteError.js';
import { accept, refuse, type Outcome } from '../errors/refusal.js';
import { chooseOption, describeNoChoice, type SelectOption } from './chooseOption.js';
import { playwrightChord } from './keys.js';
import { remainingMs, type Deadline } from '../progress/deadline.js';

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
 * Runs one action on the page, as a person would: a click moves the pointer to the target first,
 * and Playwright's click does that itself, sending the move, the press and the release together
 * (as it does for its locators' clicks). Hover handlers run before the press; what a page shows on
 * hover a task or a frame later may not be there yet by the press, which is the press a person's
 * quick click makes too. Coordinates are viewport CSS pixels.
 */
export async function performAction(page: Page, action: Action, typeMode: TypeMode, deadline: Deadline): Promise<void> {
  switch (action.type) {
    case 'click':
      await page.mouse.click(action.x, action.y, { button: action.button });
      return;
    case 'double_click':
      await page.mouse.dblclick(action.x, action.y);
      return;
    case 'type':
      await typeText(page, action.text, typeMode);
      return;
    case 'keypress': {
      const chord = playwrightChord(action.keys);
      // The Enter that took the option from the list a replay closed (see selectFocusedOption) has
      // had its effect: pressed on the closed list, it would open it again over the page.
      if (chord === 'Enter' && (await page.evaluate(ENTER_AFTER_CLOSED_LIST)) === true) return;
      await page.keyboard.press(chord);
      return;
    }
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

/** Runs in the page: the focused <select>'s options, or null when the focus is not on one. */
const FOCUSED_OPTIONS = `(function () {
  var select = document.activeElement;
  if (!(select instanceof HTMLSelectElement)) return null;
  return Array.prototype.map.call(select.options, function (o) { return { value: o.value, label: o.label }; });
})()`;

/**
 * Runs in the page: chooses the focused <select>'s option at an index, as a person's pick would.
 * A list that was open when the choice began is marked as closed by the replay, until the select loses the focus.
 */
const CHOOSE_FOCUSED_OPTION = `(function (index, value, closedList) {
  var select = document.activeElement;
  if (!(select instanceof HTMLSelectElement)) return 'the focused element is no longer a <select>';
  var option = select.options[index];
  if (!option || option.value !== value) return 'the <select> changed its options while choosing';
  if (closedList) {
    select.__roteClosedList = true;
    select.addEventListener('blur', function () { delete select.__roteClosedList; }, { once: true });
  }
  select.selectedIndex = index;
  select.dispatchEvent(new Event('input', { bubbles: true }));
  select.dispatchEvent(new Event('change', { bubbles: true }));
  return null;
})`;

/** The focused <select>'s options and the one `text` names (see chooseOption), or why there is none. */
async function focusedChoice(page: Page, text: string): Promise<Outcome<{ index: number; value: string }>> {
  const options = (await page.evaluate(FOCUSED_OPTIONS)) as SelectOption[] | null;
  if (!options) return refuse('the focused element is no longer a <select>');
  const choice = chooseOption(text, options);
  return choice.kind === 'one' ? accept({ index: choice.index, value: options[choice.index]!.value }) : refuse(describeNoChoice(text, choice, options));
}

/**
 * Why the focused <select> has not the one option `text` names, or undefined when it has, without
 * choosing it: a replay whose new value names no option, or several, hands over before acting
 * instead of failing halfway.
 */
export async function focusedSelectProblem(page: Page, text: string): Promise<string | undefined> {
  const found = await focusedChoice(page, text).catch(() => refuse('the page could not be read'));
  return found.ok ? undefined : found.reason;
}

/**
 * Runs in the page: whether the focus is on a <select> whose list a replay closed to choose its
 * option, still closed (the mark is taken either way: one Enter only).
 */
const ENTER_AFTER_CLOSED_LIST = `(function () {
  var select = document.activeElement;
  if (!(select instanceof HTMLSelectElement) || !select.__roteClosedList) return false;
  delete select.__roteClosedList;
  try { return !select.matches(':open'); } catch (e) { return false; }
})()`;

/**
 * Runs in the page: whether the focused <select> shows its list of options (`:open`; false where
 * the browser has no such pseudo-class, which is then also no way to tell).
 */
const FOCUSED_LIST_OPEN = `(function () {
  try { return document.activeElement instanceof HTMLSelectElement && document.activeElement.matches(':open'); } catch (e) { return false; }
})()`;

/**
 * Chooses the one option of the focused <select> that the text names (see chooseOption). A list
 * the recorded click left open is closed first (Escape goes to the list, not the page): an open
 * list keeps the option it was opened on, and the Enter a person pressed after typing into it
 * would put that option back over the one chosen here. That Enter, replayed next, is then not
 * pressed: it took the option and closed the list, which is done, and pressed on a closed list
 * Chromium opens it again over the fields below (the next step's crop saw it).
 */
async function selectFocusedOption(page: Page, text: string): Promise<void> {
  const found = await focusedChoice(page, text);
  if (!found.ok) throw new Error(found.reason);
  const listOpen = (await page.evaluate(FOCUSED_LIST_OPEN)) === true;
  if (listOpen) await page.keyboard.press('Escape');
  const { index, value } = found.value;
  const problem = (await page.evaluate(`${CHOOSE_FOCUSED_OPTION}(${index}, ${JSON.stringify(value)}, ${listOpen})`)) as string | null;
  if (problem) throw new Error(problem);
}

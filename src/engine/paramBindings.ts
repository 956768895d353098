import { createHash } from 'node:crypto';
import { withinDeadline, type Deadline } from '../progress/deadline.js';
import type { Page } from 'playwright';
import type { Target } from '../checks/fingerprint.js';
import { chooseOption, type SelectOption } from '../actions/chooseOption.js';
import type { BoundParams } from '../params/boundParams.js';
import type { PieceStrength } from '../params/pieces.js';
import { bindDatePart, datePartOfOptions, namesDatePart } from '../params/dateParts.js';
import { asBoolean, fold } from '../params/fold.js';
import { actionTexts } from '../actions/actionText.js';
import { templateNames } from '../params/template.js';
import { identityNames } from './targetIdentity.js';
import type { NodeState, TrajectoryNode } from '../trajectory/trajectoryNode.js';

/** Roles whose accessible name may come from a parameter: an option, a radio, a row picked by a value. */
const SEMANTIC_ROLES = new Set(['radio', 'option', 'checkbox', 'link', 'button', 'row', 'cell', 'gridcell', 'menuitem', 'menuitemradio', 'menuitemcheckbox', 'tab', 'treeitem', 'listitem']);

function paramsWithValue(params: BoundParams, text: string): string[] {
  const folded = fold(text);
  if (folded === '') return [];
  return params.entries()
    .filter(([, value]) => fold(value) === folded)
    .map(([name]) => name);
}

/**
 * A click whose target's accessible name is a parameter value is stored as a semantic target:
 * role plus templated name, resolved by the new value on replay.
 */
export function semanticName(target: Target | null, params: BoundParams): Pick<NodeState, 'nameTemplate' | 'ambiguous'> & { pieces?: { name: string; strength: PieceStrength }[] } {
  if (!target || !SEMANTIC_ROLES.has(target.fingerprint.role)) return {};
  const names = paramsWithValue(params, target.fingerprint.name);
  if (names.length === 0) {
    const pieces = params.piecesNamed(target.fingerprint.name);
    return pieces.length > 0 ? { pieces } : {};
  }
  return names.length > 1 ? { nameTemplate: `{{${names[0]}}}`, ambiguous: [names] } : { nameTemplate: `{{${names[0]}}}` };
}

/**
 * A checkbox click bound to the yes/no parameter it set, so a replay sets the box to the
 * parameter's new value. Bound only when exactly one parameter fits both by value and by name
 * (every word of its name stands in the box's label: smsReminders, "SMS reminders"); a value
 * alone could tie a consent box to an unrelated yes/no parameter. Otherwise the parameter stays
 * unused and the hazard guard acts.
 */
export function checkboxParam(target: Target | null, checkedAfter: boolean | null | undefined, params: BoundParams): string | undefined {
  if (!target || target.fingerprint.role !== 'checkbox' || checkedAfter == null) return undefined;
  const fits = params.entries()
    .filter(([name, value]) => asBoolean(value) === checkedAfter && nameFits(name, target.fingerprint.name))
    .map(([name]) => name);
  return fits.length === 1 ? fits[0] : undefined;
}

/** Every word of a parameter's name starts a word of the label: smsReminders and "SMS reminders". */
function nameFits(name: string, label: string): boolean {
  const folded = ` ${fold(label)} `;
  return words(name).every((word) => folded.includes(` ${word}`));
}

function words(name: string): string[] {
  return fold(name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/_/g, ' ')).split(' ').filter(Boolean);
}

/** What a control is known by: its labels, aria-label, name and id attributes, placeholder and title. */
const CONTROL_NAMES = `function (el) {
  var names = [el.getAttribute('aria-label'), el.getAttribute('name'), el.id, el.getAttribute('placeholder'), el.getAttribute('title')];
  if (el.labels) for (var i = 0; i < el.labels.length; i++) names.push(el.labels[i].textContent);
  var by = el.getAttribute('aria-labelledby');
  if (by) by.split(/\\s+/).forEach(function (id) { var l = document.getElementById(id); if (l) names.push(l.textContent); });
  return names.filter(function (n) { return n; }).join(' ').slice(0, 300);
}`;

const SELECTED_OPTION = `(function () {
  var select = document.activeElement;
  if (!(select instanceof HTMLSelectElement) || select.selectedIndex < 0) return null;
  var options = Array.prototype.map.call(select.options, function (o) { return { value: o.value, label: o.label }; });
  return { index: select.selectedIndex, options: options, names: (${CONTROL_NAMES})(select) };
})()`;

const FOCUSED_NAMES = `(function () { var el = document.activeElement; return el && el !== document.body ? (${CONTROL_NAMES})(el) : ''; })()`;

/** The names the focused control is known by (see CONTROL_NAMES); '' when none can be read. */
export async function focusedControlNames(page: Page, deadline: Deadline): Promise<string> {
  return ((await withinDeadline(deadline, page.evaluate(FOCUSED_NAMES), 'reading the focused control').catch(() => '')) as string) ?? '';
}

/**
 * How a chosen option stands for parameters: their names, and the formats its text renders them
 * in; or, bound to none, the parameters its label is a piece of (see BoundParams.piecesNamed).
 */
export type SelectBinding = { names: string[]; formats?: string; pieces: { name: string; strength: PieceStrength }[] };

/**
 * The parameter a select was set from: the one whose value names the chosen option the way a
 * replay reads it (chooseOption: as given, case aside, punctuation aside, a label's first words),
 * so the replay finds this option again for this value and the option of the next value for the
 * next. By the option's label, what a person reads; by its hidden value only when that value is a
 * code with letters (NY for "New York") or what the agent typed: a number code ("2" for "A-") is an
 * id that a quantity can equal by chance. A yes/no value given as true, on or 1 binds a Yes/No
 * select whose label names the parameter (as a checkbox does), rendered as the select's own words.
 * Secrets never bind a select: an option equal to one is chance, unless the agent typed it by name.
 */
export async function selectParam(page: Page, params: BoundParams, target: Target | null, typed: string, deadline: Deadline): Promise<SelectBinding> {
  const chosen = (await withinDeadline(deadline, page.evaluate(SELECTED_OPTION), 'reading the chosen option').catch(() => null)) as { index: number; options: SelectOption[]; names: string } | null;
  const option = chosen?.options[chosen.index];
  if (!chosen || !option) return { names: [], pieces: [] };
  // A yes/no answer is bound as one first: "No" chosen for a value "No" must still choose "No"
  // when the next value is written "false".
  const yesNo = yesNoSelect({ label: option.label, labels: chosen.options.map((other) => other.label) }, params, target);
  if (yesNo.names.length > 0) return { ...yesNo, pieces: [] };
  const names = params
    .plainEntries()
    .filter(([, value]) => namesOption(value, chosen.options, option, typed))
    .map(([name]) => name);
  if (names.length > 0) return { names, pieces: [] };
  // A month, day or year select of a date asked in parts: its options say which part it holds.
  const part = datePartOfOptions(chosen.options.map((other) => other.label));
  const bound = part && namesDatePart(`${target?.fingerprint.name ?? ''} ${chosen.names}`, part) ? bindDatePart(part, option.label, params) : undefined;
  if (bound && 'names' in bound) return { names: bound.names, formats: bound.formats, pieces: [] };
  if (bound) return { names: [], pieces: bound.literal.map((name) => ({ name, strength: 'strong' as const })) };
  return { names: [], pieces: params.piecesNamed(option.label) };
}

/** Whether a replay reading `value` would choose `option`, by its label or by a value that is no bare number code. */
function namesOption(value: string, options: readonly SelectOption[], option: SelectOption, typed: string): boolean {
  if (value.trim() === '') return false;
  const choice = chooseOption(value, options);
  if (choice.kind !== 'one' || options[choice.index]!.value !== option.value) return false;
  const byLabel = chooseOption(value, options.map((other) => ({ value: other.label, label: other.label })));
  if (byLabel.kind === 'one' && options[byLabel.index]!.label === option.label) return true;
  return /\p{L}/u.test(value) || fold(value) === fold(typed);
}

function yesNoSelect(chosen: { label: string; labels: string[] }, params: BoundParams, target: Target | null): Omit<SelectBinding, 'pieces'> {
  const picked = asBoolean(chosen.label);
  if (picked === undefined || !target) return { names: [] };
  // Exactly one option for each answer, so the other answer names one option too.
  const opposite = chosen.labels.filter((label) => asBoolean(label) === !picked);
  if (opposite.length !== 1 || chosen.labels.filter((label) => asBoolean(label) === picked).length !== 1) return { names: [] };
  // 0 and 1 among 2, 3... are counts, not answers (a "Children" select): only words make a yes/no select.
  if (chosen.labels.some((label) => /^\s*\d+\s*$/.test(label) && asBoolean(label) === undefined)) return { names: [] };
  const fits = params.entries()
    .filter(([name, value]) => asBoolean(value) === picked && nameFits(name, target.fingerprint.name))
    .map(([name]) => name);
  if (fits.length !== 1) return { names: [] };
  const [yes, no] = picked ? [chosen.label, opposite[0]!] : [opposite[0]!, chosen.label];
  // The words go inside a placeholder: ones that cannot stand there leave the option unbound.
  if (/[|{}/]/.test(yes + no)) return { names: [] };
  return { names: fits, formats: `bool:${yes.trim()}/${no.trim()}` };
}

/** Parameter names a node puts on the page when replayed. */
export function namesUsedBy(node: TrajectoryNode): string[] {
  const names = new Set<string>();
  // Typed text, a URL, a tool's arguments (what the tool puts to use).
  for (const text of actionTexts(node.action)) templateNames(text).forEach((name) => names.add(name));
  if (node.state.nameTemplate) templateNames(node.state.nameTemplate).forEach((name) => names.add(name));
  // A prompt answered with a value puts it on the page.
  for (const dialog of node.state.dialogs ?? []) if (dialog.text !== undefined) templateNames(dialog.text).forEach((name) => names.add(name));
  // A target picked by a value (the row of this run's customer) puts that value to use.
  identityNames(node.state.identity).forEach((name) => names.add(name));
  if (node.state.checkedParam) names.add(node.state.checkedParam);
  // Text kept literal is guarded by its own check at that step (a changed value diverges there).
  Object.keys(node.state.literalOf ?? {}).forEach((name) => names.add(name));
  return [...names];
}

/**
 * Parameters a node sets by clicks rather than typing (NodeState.setsValue): put on the page by
 * the path, but only with the values the step was recorded setting, so a replay never counts them
 * as shown with this run's value.
 */
export function namesSetBy(node: TrajectoryNode): string[] {
  return [...new Set((node.state.setsValue ?? []).map((set) => set.param))];
}

/**
 * The first parameter whose value this step would set to another value than this run's: it was
 * recorded setting only other values (a secret, never hashed, never matches).
 */
export function setsOtherValue(node: TrajectoryNode, valueHashes: Readonly<Record<string, string>>): string | undefined {
  const sets = node.state.setsValue ?? [];
  return namesSetBy(node).find((name) => !sets.some((set) => set.param === name && valueHashes[name] !== undefined && set.hash === valueHashes[name]));
}

/**
 * A fingerprint of a parameter's value, so a later run can tell "same value as recorded" without
 * the value being stored. Salted by task (TaskIdentity.valueSalt, origin-free), so equal values of
 * other tasks do not line up while a recording imported onto another host still does.
 */
export function valueHash(salt: string, name: string, value: string): string {
  return createHash('sha256').update(`${salt}\u0000${name}\u0000${value}`).digest('hex').slice(0, 20);
}

/**
 * The guard of a secret kept in literal text: never hashed (a hash of a short password is as good
 * as the password), and no run's hashes hold it, so such a step always hands over.
 */
export const SECRET_GUARD = 'secret';

/**
 * The hashes that guard text kept literal for `names` (a form that could not be told for sure):
 * a replay whose value differs must not type the old text. A secret gets SECRET_GUARD: text that
 * holds it in a way no template proves (a date input holding 1990-04-01 while the PIN is 1990)
 * is never replayed with another secret spliced in.
 */
export function literalGuards(names: Iterable<string>, params: BoundParams, salt: string): Record<string, string> | undefined {
  const guards: Record<string, string> = {};
  for (const name of names) {
    const value = params.get(name);
    if (value !== undefined) guards[name] = params.isSecret(name) ? SECRET_GUARD : valueHash(salt, name, value);
  }
  return Object.keys(guards).length > 0 ? guards : undefined;
}

/** The hash of every non-secret value of a run, to compare with the guards of literal text. */
export function valueHashesOf(params: BoundParams, salt: string): Record<string, string> {
  return Object.fromEntries(params.plainEntries().map(([name, value]) => [name, valueHash(salt, name, value)]));
}

import { createHash } from 'node:crypto';
import type { Page } from 'playwright';
import type { Target } from '../checks/fingerprint.js';
import type { BoundParams } from '../params/boundParams.js';
import { asBoolean, fold } from '../params/fold.js';
import { actionTexts } from '../actions/actionText.js';
import { templateNames } from '../params/template.js';
import { identityNames } from './targetIdentity.js';
import type { NodeState, TrajectoryNode } from './trajectoryNode.js';

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
export function semanticName(target: Target | null, params: BoundParams): Pick<NodeState, 'nameTemplate' | 'ambiguous'> & { pieceOf?: string[] } {
  if (!target || !SEMANTIC_ROLES.has(target.fingerprint.role)) return {};
  const names = paramsWithValue(params, target.fingerprint.name);
  if (names.length === 0) {
    const pieceOf = params.piecesNamed(target.fingerprint.name);
    return pieceOf.length > 0 ? { pieceOf } : {};
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

const SELECTED_OPTION = `(function () {
  var select = document.activeElement;
  if (!(select instanceof HTMLSelectElement) || select.selectedIndex < 0) return null;
  var option = select.options[select.selectedIndex];
  var labels = Array.prototype.map.call(select.options, function (o) { return o.label; });
  return { value: option.value, label: option.label, labels: labels };
})()`;

/** One folded word run is the start of the other: "evening" and "Evening (6-9 PM)". */
function startsWithWords(long: string, short: string): boolean {
  return short !== '' && long.startsWith(`${short} `);
}

/**
 * How a chosen option stands for parameters: their names, and the formats its text renders them
 * in; or, bound to none, the parameters it is a piece of (see BoundParams.piecesNamed).
 */
export type SelectBinding = { names: string[]; formats?: string; pieceOf: string[] };

/**
 * The parameter a select was set from: the chosen option's value or label, case and punctuation
 * aside, or a label that starts with the value's words when no other option's label does (so the
 * replay, which chooses the same way, finds this option again). A yes/no value given as true, on
 * or 1 binds a Yes/No select whose label names the parameter (as a checkbox does), rendered as
 * the select's own words.
 */
export async function selectParam(page: Page, params: BoundParams, target: Target | null): Promise<SelectBinding> {
  const chosen = (await page.evaluate(SELECTED_OPTION).catch(() => null)) as { value: string; label: string; labels: string[] } | null;
  if (!chosen) return { names: [], pieceOf: [] };
  // A yes/no answer is bound as one first: "No" chosen for a value "No" must still choose "No"
  // when the next value is written "false".
  const yesNo = yesNoSelect(chosen, params, target);
  if (yesNo.names.length > 0) return { ...yesNo, pieceOf: [] };
  const byValue = paramsWithValue(params, chosen.value);
  if (byValue.length > 0) return { names: byValue, pieceOf: [] };
  const byLabel = paramsWithValue(params, chosen.label);
  if (byLabel.length > 0) return { names: byLabel, pieceOf: [] };
  const label = fold(chosen.label);
  const byWords = params.entries()
    .filter(([, value]) => {
      const wanted = fold(value);
      const fits = (other: string) => startsWithWords(fold(other), wanted);
      return startsWithWords(label, wanted) && chosen.labels.filter(fits).length === 1;
    })
    .map(([name]) => name);
  if (byWords.length > 0) return { names: byWords, pieceOf: [] };
  return { names: [], pieceOf: [...new Set([...params.piecesNamed(chosen.label), ...params.piecesNamed(chosen.value)])] };
}

function yesNoSelect(chosen: { label: string; labels: string[] }, params: BoundParams, target: Target | null): Omit<SelectBinding, 'pieceOf'> {
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

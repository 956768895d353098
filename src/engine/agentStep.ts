import { createHash } from 'node:crypto';
import type { Page } from 'playwright';
import { actionPoint, type Action } from '../actions/action.js';
import { performAction } from '../actions/perform.js';
import { beforeAction, settle } from '../checks/settle.js';
import { targetAt } from '../checks/target.js';
import type { BoundParams } from '../params/boundParams.js';
import { withinDeadline, type Deadline } from '../progress/deadline.js';
import { bindDatePart, datePartOfName } from '../params/dateParts.js';
import { dateTimeTemplate } from '../params/dateTimeValue.js';
import { hideSecrets, isTemplate, templateNames, templatize, type FieldKind } from '../params/template.js';
import type { PieceStrength } from '../params/pieces.js';
import { captureEvidence, type RecordedEvidence } from './evidence.js';
import { checkboxParam, focusedControlNames, literalGuards, selectParam, semanticName } from './paramBindings.js';
import { templatedAction } from './recordStep.js';
import { newNode, type StatePatch } from '../trajectory/nodeBuilder.js';
import type { TrajectoryNode } from '../trajectory/trajectoryNode.js';

/** What a native input's value is, read by its type: a date input holds an ISO date, a time input a 24-hour time. */
function fieldKindOf(inputType: string | null | undefined): FieldKind | undefined {
  switch (inputType) {
    case 'date': return 'date';
    case 'time': return 'time';
    default: return undefined;
  }
}

const FOCUSED_VALUE = `(function () { var el = document.activeElement; return el instanceof HTMLInputElement ? el.value : ''; })()`;

/** What recording one of the agent's actions needs besides the page and the action (bound). */
export type AgentStepInput = {
  intent: string | undefined;
  params: BoundParams;
  /** The task's words as given (a template): a name they say is what a step means. */
  task: string;
  taskId: string;
  valueSalt: string;
  parentId: string | null;
  deadline: Deadline;
  /** The action as the agent gave it, its `{{name}}`s unbound (see templatedAction). */
  asGiven: Action;
};

/** The parameters a strong piece stands for: guarded at once (a weak one waits for the run, see runCommit). */
function strongPieces(pieces: readonly { name: string; strength: PieceStrength }[]): string[] {
  return pieces.filter((piece) => piece.strength === 'strong').map((piece) => piece.name);
}

/**
 * Whether a value stands in a field's text as a whole, not inside a longer number or word (a
 * guests "2" is not in 2024-06-01). A secret anywhere counts: guarding one found by chance costs
 * only a hand-over.
 */
function standsIn(text: string, value: string, secret: boolean): boolean {
  if (secret) return text.includes(value);
  const escaped = value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'u').test(text);
}

export type AgentStep = {
  /** A new node for the step; the caller decides whether an equal stored node stands for it. */
  node: TrajectoryNode;
  crop: { hash: string; bytes: Buffer } | null;
};

/** What ties a typed or clicked step to the parameters, worked out piece by piece (see performAgentStep). */
type Binding = {
  action: Action;
  /** Parameters whose value the stored text holds in a form that could not be told for sure: guarded. */
  literal: string[];
  /** Parameters the stored text holds a piece of (the October of a birth date). */
  pieceOf: string[];
  readings?: { param: string; formats: string[] } | undefined;
  ambiguous: string[][];
};

/**
 * Does one of the agent's actions and records it: evidence from the page before it acts, the
 * action itself, then what ties it to the parameters (typed text and chosen options as
 * templates, a target named by a value, a checkbox set from a yes/no parameter).
 */
export async function performAgentStep(
  page: Page,
  action: Action,
  input: AgentStepInput,
): Promise<AgentStep> {
  const { params } = input;
  const evidence = await captureEvidence(page, action, params, input.task, input.deadline);
  const before = beforeAction(page);
  await performAction(page, action, evidence.state.typeMode === 'select' ? 'select' : 'keys', input.deadline);
  await settle(page, before, input.deadline);

  const learned: StatePatch = {};
  const point = actionPoint(action);
  if (point && evidence.state.checkedBefore != null) {
    learned.checkedAfter = (await targetAt(page, point, { identity: false, deadline: input.deadline }))?.checked ?? null;
  }
  const templated = templatedAction(action, params, input.asGiven);
  // Ambiguities of the text typed, and of the target's identity (a row header equal to two values).
  let binding: Binding = { ...templated, ambiguous: [...templated.ambiguous, ...(evidence.state.ambiguous ?? [])] };
  let typeMode = evidence.state.typeMode;
  if (action.type === 'type' && binding.action.type === 'type') {
    if (typeMode === 'select') binding = await selectBinding(page, action.text, binding, evidence, input);
    if (typeMode === 'value') {
      const held = (await withinDeadline(input.deadline, page.evaluate(FOCUSED_VALUE), 'reading the value the field holds').catch(() => '')) as string;
      if (held === '') typeMode = learned.typeMode = 'keys';
      else binding = valueBinding(held, binding, evidence, params);
    }
    if ((typeMode === 'keys' || typeMode === 'replace') && !isTemplate(textOf(binding.action))) binding = await datePartBinding(page, action.text, binding, evidence, params, input.deadline);
  }
  if (action.type === 'click') binding = clickBinding(binding, evidence, learned, params);
  Object.assign(learned, guardsOf(binding, input));

  const crop = evidence.crop ? { hash: createHash('sha256').update(evidence.crop).digest('hex'), bytes: evidence.crop } : null;
  // The intent is stored with parameter values as templates too: "Open {{customerName}}" reads right for the next customer.
  const intent = input.intent === undefined ? undefined : templatize(input.intent, params).template;
  const node = newNode({ taskId: input.taskId, parentId: input.parentId, action: binding.action, intent, evidence, cropHash: crop?.hash ?? null, learned });
  return { node, crop };
}

function textOf(action: Action): string {
  return action.type === 'type' ? action.text : '';
}

/** The state that guards the stored text: its ambiguities, pieces, literal values and readings. */
function guardsOf(binding: Binding, input: AgentStepInput): StatePatch {
  const guards: StatePatch = {};
  if (binding.ambiguous.length > 0) guards.ambiguous = binding.ambiguous;
  if (binding.pieceOf.length > 0) guards.pieces = [...new Set(binding.pieceOf)];
  // Text typed in a form that cannot be told for sure stays literal; a replay with another value
  // for its parameter must hand over there rather than type the old text (see preCheck).
  const literalOf = literalGuards(binding.literal, input.params, input.valueSalt);
  if (literalOf) guards.literalOf = literalOf;
  // The text stands for one parameter read more than one way: a later value may tell which.
  const { readings } = binding;
  if (literalOf && readings && Object.keys(literalOf).length === 1 && literalOf[readings.param] !== undefined && !isTemplate(textOf(binding.action)) && binding.action.type === 'type') {
    guards.readings = readings;
  }
  return guards;
}

/**
 * An option is chosen whole: by the parameter whose value is the chosen option's value or label
 * ("CA" shown as "California", "evening" as "Evening (6-9 PM)"), or else as recorded. Never a
 * template over part of a label, which would name an option that does not exist.
 */
async function selectBinding(page: Page, chosen: string, binding: Binding, evidence: RecordedEvidence, input: AgentStepInput): Promise<Binding> {
  const { params } = input;
  const { names, formats, pieces } = await selectParam(page, params, evidence.target, chosen, input.deadline);
  const ambiguous = names.length > 1 ? [names] : [];
  if (names.length > 0) return { action: { ...binding.action, text: `{{${names[0]}${formats ? `|${formats}` : ''}}}` } as Action, literal: [], pieceOf: [], readings: binding.readings, ambiguous };
  const hidden = hideSecrets(chosen, params).template;
  // An option that is only a piece of a value (the October of a birth date) is kept, guarded;
  // one that shows a secret is chance unless the agent chose it by name: that step hands over.
  const typedByName = new Set(input.asGiven.type === 'type' ? templateNames(input.asGiven.text) : []);
  const secretsShown = templateNames(hidden).filter((name) => params.isSecret(name) && !typedByName.has(name));
  return { action: { ...binding.action, text: hidden } as Action, literal: [...strongPieces(pieces), ...secretsShown], pieceOf: pieces.map((piece) => piece.name), readings: binding.readings, ambiguous };
}

/**
 * A date-like input is stored by the value it ended up holding (ISO), so a replay sets the new
 * date whatever format, locale or segment order the keys were typed in.
 */
function valueBinding(held: string, binding: Binding, evidence: RecordedEvidence, params: BoundParams): Binding {
  const dateTime = evidence.target?.fingerprint.inputType === 'datetime-local' ? dateTimeTemplate(held, params) : undefined;
  if (dateTime) {
    // A date and a time given as one value (2020/08/29 2:30 PM): bound whole, or guarded when its reading cannot be told.
    const whole = 'template' in dateTime;
    return { action: { ...binding.action, text: whole ? dateTime.template : hideSecrets(held, params).template } as Action, literal: whole ? [] : dateTime.literal, pieceOf: [], readings: undefined, ambiguous: whole ? dateTime.ambiguous : [] };
  }
  // Only a whole value is a template here: part of "2024-03-15T09:30" or "2024-03" set from
  // a date would keep the rest old. Otherwise literal, guarded for every value in it.
  const templated = templatize(held, params, 'text', fieldKindOf(evidence.target?.fingerprint.inputType));
  const whole = /^\{\{[^{}]+\}\}$/.test(templated.template);
  const literal = whole ? templated.literal : params.entries().filter(([name, value]) => value !== '' && (standsIn(held, value, params.isSecret(name)) || templated.template.includes(`{{${name}`) || templated.literal.includes(name))).map(([name]) => name);
  return { action: { ...binding.action, text: whole ? templated.template : hideSecrets(held, params).template } as Action, literal, pieceOf: whole ? [] : templated.pieceOf, readings: whole ? undefined : templated.readings, ambiguous: [...templated.ambiguous] };
}

/** A box of a date asked in parts, named for its part (Day, MM, Year): the part of the date it holds. */
async function datePartBinding(page: Page, typed: string, binding: Binding, evidence: RecordedEvidence, params: BoundParams, deadline: Deadline): Promise<Binding> {
  const name = `${evidence.target?.fingerprint.name ?? ''} ${await focusedControlNames(page, deadline)}`;
  const part = datePartOfName(name);
  const bound = part ? bindDatePart(part, typed, params) : undefined;
  if (!bound || !('names' in bound)) return binding;
  return { action: { ...binding.action, text: `{{${bound.names[0]}|${bound.formats}}}` } as Action, literal: [], pieceOf: [], readings: binding.readings, ambiguous: bound.names.length > 1 ? [bound.names] : [] };
}

/** A click on a target named by a value (a day in a date picker, a PM radio), or a checkbox set from a yes/no parameter. */
function clickBinding(binding: Binding, evidence: RecordedEvidence, learned: StatePatch, params: BoundParams): Binding {
  const semantic = semanticName(evidence.target, params);
  if (semantic.nameTemplate) learned.nameTemplate = semantic.nameTemplate;
  // A day in a date picker, a PM radio: a piece of a value, clicked as recorded only while the value holds.
  const pieces = semantic.pieces ?? [];
  const checkbox = semantic.nameTemplate ? undefined : checkboxParam(evidence.target, learned.checkedAfter, params);
  if (checkbox) learned.checkedParam = checkbox;
  return {
    ...binding,
    ambiguous: [...binding.ambiguous, ...(semantic.ambiguous ?? [])],
    literal: [...binding.literal, ...strongPieces(pieces)],
    pieceOf: [...binding.pieceOf, ...pieces.map((piece) => piece.name)],
  };
}

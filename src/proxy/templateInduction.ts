import { createHash } from 'node:crypto';
import { accept, refuse, type Outcome } from '../errors/refusal.js';
import { stringsOf, type JsonValue } from '../params/jsonValues.js';
import { templateLevel } from './chatKey.js';
import type { StoredReply } from './chatReply.js';
import { ambiguity, templatable, templateText, type DeclaredValues } from './declaredValues.js';
import { templateJsonText } from './jsonTemplates.js';
import { levelDifferences, textDifferences, type ValuePair } from './valueDiff.js';

/**
 * Templates learned from what the store already holds, for clients that declare no values.
 *
 * Two stored conversations of the same shape and length whose messages and replies differ only in
 * values (valueDiff.ts) give a template when, with each value replaced by a variable, both become
 * the very same conversation and the very same reply, and every value entered the conversation
 * through a user, system or developer message and came back in something the model wrote (a
 * stored assistant message or the reply). A value that only a tool result brought is new data, and
 * a conversation that differs in it is a branch of its own, never a template: the model may have
 * decided on it. So is one the model never repeated: nothing shows how the reply depends on it.
 *
 * A template is used only when a new request reads as the template's exemplar with other values,
 * unambiguously (readValues), and its messages templated with those values are exactly the
 * template's (the caller's lookup): where in doubt, the request is forwarded.
 */
export type StoredPath = {
  nodeId: string;
  levels: readonly string[];
  reply: StoredReply;
  /** The reply stored at each level of the path (the answer to the request that ended there), null where none is; the last is `reply`. */
  replies: readonly (StoredReply | null)[];
};

/** One of the two conversations a template was learned from, as stored, and the value each variable had in it. */
export type Exemplar = { levels: string[]; values: Record<string, string> };

export type LearnedTemplate = { levels: string[]; reply: StoredReply; exemplar: Exemplar };

/** Who a value may come from (the task) and who must have repeated it (the model). */
const INPUT_ROLES = new Set(['user', 'system', 'developer']);

/**
 * The templates two stored conversations give: one for the whole of them, and one for each
 * earlier request on their paths that both have a reply for (an agent's earlier turns), with the
 * same variables. The variables are decided on the whole conversations, where the model has
 * written every value it takes from the task; an earlier turn alone shows too little of that.
 */
export function induceTemplates(first: StoredPath, second: StoredPath): Outcome<LearnedTemplate[]> {
  if (first.levels.length !== second.levels.length) return refuse('the conversations have other lengths');
  if (holdsTemplate(first) || holdsTemplate(second)) return refuse('a conversation already holds declared values');
  const pairs: ValuePair[] = [];
  for (let index = 0; index < first.levels.length; index++) {
    const found = levelDifferences(first.levels[index]!, second.levels[index]!);
    if (!found.ok) return refuse(`message ${index} differs in more than values: ${found.reason}`);
    pairs.push(...found.value);
  }
  const replyPairs = replyDifferences(first.reply, second.reply);
  if (!replyPairs.ok) return refuse(`the replies differ in more than values: ${replyPairs.reason}`);
  pairs.push(...replyPairs.value);
  const named = nameValues(pairs);
  if (!named.ok) return named;
  const { firstValues, secondValues } = named.value;
  const problem = valueProblem(firstValues) ?? valueProblem(secondValues);
  if (problem) return refuse(problem);
  for (const [name, value] of firstValues) {
    if (valueForm(value) !== valueForm(secondValues.get(name)!)) return refuse(`"${value}" and "${secondValues.get(name)}" are not of one form (letters, digits and joining characters in the same order)`);
  }
  const whole = templatePair(first, second, firstValues, secondValues);
  if (!whole.ok) return whole;
  for (const name of firstValues.keys()) {
    // First from the task: a value a tool result brought before any message of the task named it
    // is data the model may have decided on at every turn in between.
    if (whole.value.firstFrom.get(name) !== 'input') return refuse(`"${firstValues.get(name)}" did not come from a user, system or developer message before anything else brought it (a tool result's data is a branch, not a value)`);
    if (!whole.value.outputs.has(name)) return refuse(`the model never wrote "${firstValues.get(name)}": nothing shows how its answers depend on it`);
  }
  const templates = [whole.value.template];
  for (let depth = 1; depth < first.levels.length; depth++) {
    const [a, b] = [first.replies[depth - 1], second.replies[depth - 1]];
    if (!a || !b) continue;
    const earlier = templatePair({ levels: first.levels.slice(0, depth), reply: a }, { levels: second.levels.slice(0, depth), reply: b }, firstValues, secondValues);
    // An earlier turn that is not the same with the values as variables is not kept, and the later
    // ones stand on their own; nor is one that holds no value yet (the tree has it as it is).
    if (earlier.ok && Object.keys(earlier.value.template.exemplar.values).length > 0) templates.push(earlier.value.template);
  }
  return accept(templates);
}

/**
 * Both conversations with their values as variables, when that makes them the same conversation
 * and the same reply; which variables stand in a message of the task (inputs) and in something
 * the model wrote (outputs). A reply is templated only with the values its request holds.
 */
function templatePair(first: Pick<StoredPath, 'levels' | 'reply'>, second: Pick<StoredPath, 'levels' | 'reply'>, firstValues: DeclaredValues, secondValues: DeclaredValues): Outcome<{ template: LearnedTemplate; firstFrom: Map<string, 'input' | 'other'>; outputs: Set<string> }> {
  const levels: string[] = [];
  /** Where each variable first stands: a message of the task, or anything else (a tool result, the model). */
  const firstFrom = new Map<string, 'input' | 'other'>();
  const outputs = new Set<string>();
  const used = new Set<string>();
  for (let index = 0; index < first.levels.length; index++) {
    const here = new Set<string>();
    const a = templateLevel(first.levels[index]!, firstValues, here);
    const b = templateLevel(second.levels[index]!, secondValues, new Set());
    if (!a.ok || !b.ok || a.value !== b.value) return refuse(`message ${index} is not the same with its values as variables`);
    const role = String((JSON.parse(first.levels[index]!) as { role?: unknown }).role);
    for (const name of here) {
      used.add(name);
      if (!firstFrom.has(name)) firstFrom.set(name, INPUT_ROLES.has(role) ? 'input' : 'other');
      if (role === 'assistant') outputs.add(name);
    }
    levels.push(a.value);
  }
  const only = (values: DeclaredValues) => new Map([...values].filter(([name]) => used.has(name)));
  const reply = templateReply(first.reply, only(firstValues), outputs);
  const other = templateReply(second.reply, only(secondValues), new Set());
  if (!reply.ok || !other.ok || !sameAnswer(reply.value, other.value)) return refuse('the replies are not the same with their values as variables');
  const values = Object.fromEntries([...firstValues].filter(([name]) => used.has(name)));
  return accept({ template: { levels, reply: reply.value, exemplar: { levels: [...first.levels], values } }, firstFrom, outputs });
}

/**
 * This request's values, read by comparing its messages with the template's exemplar: every
 * difference must be one of the exemplar's values, the same value always in the same place. A value
 * that does not differ keeps the exemplar's. Refused when the request differs in anything else.
 */
export function readValues(exemplar: Exemplar, levels: readonly string[]): Outcome<DeclaredValues> {
  if (exemplar.levels.length !== levels.length) return refuse('another number of messages');
  const byValue = new Map(Object.entries(exemplar.values).map(([name, value]) => [value, name]));
  const values = new Map(Object.entries(exemplar.values));
  const changed = new Set<string>();
  for (let index = 0; index < levels.length; index++) {
    const found = levelDifferences(exemplar.levels[index]!, levels[index]!);
    if (!found.ok) return refuse(`message ${index} differs in more than values: ${found.reason}`);
    for (const [was, now] of found.value) {
      const name = byValue.get(was);
      if (name === undefined) return refuse(`message ${index} differs in "${was}", which is not one of the template's values`);
      if (changed.has(name) && values.get(name) !== now) return refuse(`"${was}" stands for two different values in this request`);
      values.set(name, now);
      changed.add(name);
    }
  }
  // Of the form the template was learned on: one learned on single words does not read a
  // hyphenated name, nor one learned on whole numbers a decimal (the model may treat them apart).
  for (const [name, value] of values) {
    if (valueForm(value) !== valueForm(exemplar.values[name]!)) return refuse(`"${value}" is not of the form of the template's "${exemplar.values[name]}"`);
  }
  const problem = valueProblem(values);
  return problem ? refuse(problem) : accept(values);
}

/**
 * A value's form: each run of letters by its case (A upper, a lower, Aa capitalized, Ax mixed, L a
 * script with no case), each run of digits a 9 (inside a compound, one 9 per digit: 2026-11-27 is
 * 9999-99-99 and 05-12-2026 is not), the rest as it is. "alan" is not "Ada", "JFK" not "Boston".
 */
export function valueForm(value: string): string {
  const compound = /[-.@/+]/.test(value);
  return value
    .replace(/[\p{L}\p{M}]+/gu, (run) => {
      const upper = /\p{Lu}/u.test(run);
      const lower = /\p{Ll}/u.test(run);
      if (!upper && !lower) return 'L';
      if (!lower) return 'A';
      if (!upper) return 'a';
      return /^\p{Lu}[\p{Ll}\p{M}]*$/u.test(run) ? 'Aa' : 'Ax';
    })
    .replace(/\p{N}+/gu, (run) => (compound ? '9'.repeat([...run].length) : '9'));
}

function replyDifferences(first: StoredReply, second: StoredReply): Outcome<ValuePair[]> {
  if (first.finishReason !== second.finishReason) return refuse('they finished differently');
  if ((first.content === null) !== (second.content === null)) return refuse('one has text, the other none');
  if (first.toolCalls.length !== second.toolCalls.length || first.toolCalls.some((call, index) => call.name !== second.toolCalls[index]!.name)) return refuse('they call other tools');
  const pairs: ValuePair[] = [];
  if (first.content !== null) {
    const found = textDifferences(first.content, second.content!, false);
    if (!found.ok) return found;
    pairs.push(...found.value);
  }
  for (const [index, call] of first.toolCalls.entries()) {
    const found = textDifferences(call.arguments, second.toolCalls[index]!.arguments, true);
    if (!found.ok) return found;
    pairs.push(...found.value);
  }
  return accept(pairs);
}

/** One variable per pair of values, named in the order they first differ; a value that pairs with two others is no variable. */
function nameValues(pairs: readonly ValuePair[]): Outcome<{ firstValues: Map<string, string>; secondValues: Map<string, string> }> {
  if (pairs.length === 0) return refuse('the conversations are the same');
  const forward = new Map<string, string>();
  const backward = new Map<string, string>();
  for (const [a, b] of pairs) {
    if ((forward.has(a) && forward.get(a) !== b) || (backward.has(b) && backward.get(b) !== a)) return refuse(`"${a}" and "${b}" do not pair one to one`);
    forward.set(a, b);
    backward.set(b, a);
  }
  const firstValues = new Map<string, string>();
  const secondValues = new Map<string, string>();
  [...forward].forEach(([a, b], index) => {
    firstValues.set(`value${index + 1}`, a);
    secondValues.set(`value${index + 1}`, b);
  });
  return accept({ firstValues, secondValues });
}

function valueProblem(values: DeclaredValues): string | undefined {
  for (const value of values.values()) if (!templatable(value)) return `"${value}" is too common to stand for a value (true, false or under three characters)`;
  return ambiguity(values);
}

/** The reply with the values the conversation holds as variables (only those: as storableReply keeps a reply). */
function templateReply(reply: StoredReply, values: DeclaredValues, outputs: Set<string>): Outcome<StoredReply> {
  let content: string | null = null;
  if (reply.content !== null) {
    const templated = templateText(reply.content, values);
    if (!templated.ok) return templated;
    templated.value.used.forEach((name) => outputs.add(name));
    content = templated.value.text;
  }
  const toolCalls: StoredReply['toolCalls'] = [];
  for (const call of reply.toolCalls) {
    const args = templateJsonText(call.arguments, values);
    if (!args.ok) return args;
    args.value.used.forEach((name) => outputs.add(name));
    toolCalls.push({ name: call.name, arguments: args.value.text });
  }
  return accept({ ...reply, content, toolCalls });
}

/** Two replies that say the same (what they cost and which model version wrote them aside). */
export function sameAnswer(first: StoredReply, second: StoredReply): boolean {
  const { usage: _a, model: _b, ...one } = first;
  const { usage: _c, model: _d, ...other } = second;
  return JSON.stringify(one) === JSON.stringify(other);
}

/** What a template's templated messages are known by: a request read with its values must template to exactly these. */
export function templatePathHash(levels: readonly string[]): string {
  return createHash('sha256').update(JSON.stringify(levels)).digest('hex');
}

/** A stored path that holds declared values (marker characters, in a message, its tool calls' arguments or its reply). */
function holdsTemplate(path: StoredPath): boolean {
  const marked = (text: string): boolean => {
    if (/[\u0001-\u0003]/.test(text)) return true;
    const parsed = parseJson(text);
    return parsed !== undefined && typeof parsed === 'object' && parsed !== null && stringsOf(parsed as JsonValue).some(marked);
  };
  return path.levels.some(marked) || marked(path.reply.content ?? '') || path.reply.toolCalls.some((call) => marked(call.arguments));
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

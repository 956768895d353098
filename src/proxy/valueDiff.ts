import { accept, refuse, type Outcome } from '../errors/refusal.js';
import { isJsonObject } from '../params/jsonValues.js';

/**
 * Where two stored messages differ, as pairs of values: the one of each difference as the first
 * message has it and as the second has it. Two messages differ only in values when they have the
 * same fields, the same structure and the same text around the differences: anything else
 * (another field, another tool, a different count of words) is not a difference in values, and is
 * refused.
 *
 * Texts are compared word by word (a word is a run of letters, digits and marks, as a value is a
 * whole token in declaredValues.ts). Words joined by one of a few characters with no space
 * (`ada@acme.io`, `2026-11-27`, `12.50`) are one compound, and a compound that differs is one value
 * whole (`ada@acme.io` and `bob@acme.io`, not `ada` and `bob`); words apart by a space are two
 * (`Ada Lovelace` and `Grace Hopper` are Ada/Grace and Lovelace/Hopper, as they also appear on their
 * own). A tool call's arguments are JSON, compared leaf by leaf, so a
 * value is found whatever escaping it needed, and a number leaf is one value.
 */
export type ValuePair = readonly [first: string, second: string];

const WORD = /[\p{L}\p{N}\p{M}_]+/gu;

/** The pairs where two levels (canonical messages, as chatKey writes them with no values) differ. */
export function levelDifferences(first: string, second: string): Outcome<ValuePair[]> {
  const pairs: ValuePair[] = [];
  const problem = compare(JSON.parse(first) as unknown, JSON.parse(second) as unknown, pairs, false);
  return problem ? refuse(problem) : accept(pairs);
}

/** A reply's text or arguments compared the same way. */
export function textDifferences(first: string, second: string, json: boolean): Outcome<ValuePair[]> {
  const pairs: ValuePair[] = [];
  const problem = json ? compareJsonText(first, second, pairs) : compareText(first, second, pairs);
  return problem ? refuse(problem) : accept(pairs);
}

function compare(first: unknown, second: unknown, pairs: ValuePair[], insideCall: boolean): string | undefined {
  if (typeof first === 'string' && typeof second === 'string') return first === second ? undefined : compareText(first, second, pairs);
  if (Array.isArray(first) && Array.isArray(second)) {
    if (first.length !== second.length) return 'a list of another length';
    for (let index = 0; index < first.length; index++) {
      const problem = compare(first[index], second[index], pairs, insideCall);
      if (problem) return problem;
    }
    return undefined;
  }
  if (isJsonObject(first) && isJsonObject(second)) {
    const keys = Object.keys(first);
    if (keys.length !== Object.keys(second).length || keys.some((key) => !Object.hasOwn(second, key))) return 'other fields';
    for (const key of keys) {
      // A tool call's arguments are JSON text: compared as JSON, leaf by leaf.
      const problem = key === 'arguments' && insideCall && typeof first[key] === 'string' && typeof second[key] === 'string' ? compareJsonText(first[key], second[key], pairs) : compare(first[key], second[key], pairs, insideCall || key === 'function');
      if (problem) return problem;
    }
    return undefined;
  }
  return first === second ? undefined : 'another value outside a text';
}

function compareJsonText(first: string, second: string, pairs: ValuePair[]): string | undefined {
  if (first === second) return undefined;
  const a = parseJson(first);
  const b = parseJson(second);
  if (a === undefined || b === undefined) return compareText(first, second, pairs);
  return compareLeaves(a.value, b.value, pairs);
}

function compareLeaves(first: unknown, second: unknown, pairs: ValuePair[]): string | undefined {
  if (typeof first === 'number' && typeof second === 'number') {
    if (first !== second) pairs.push([String(first), String(second)]);
    return undefined;
  }
  if (typeof first === 'string' && typeof second === 'string') return first === second ? undefined : compareText(first, second, pairs);
  if (Array.isArray(first) && Array.isArray(second)) {
    if (first.length !== second.length) return 'a list of another length';
    for (let index = 0; index < first.length; index++) {
      const problem = compareLeaves(first[index], second[index], pairs);
      if (problem) return problem;
    }
    return undefined;
  }
  if (isJsonObject(first) && isJsonObject(second)) {
    const keys = Object.keys(first);
    if (keys.length !== Object.keys(second).length || keys.some((key, index) => Object.keys(second)[index] !== key)) return 'other fields';
    for (const key of keys) {
      const problem = compareLeaves(first[key], second[key], pairs);
      if (problem) return problem;
    }
    return undefined;
  }
  return first === second ? undefined : 'another value outside a text';
}

/** Word by word: the same words and the same text between them, but for values; a value is a whole compound (see JOINERS). */
function compareText(first: string, second: string, pairs: ValuePair[]): string | undefined {
  const a = split(first);
  const b = split(second);
  if (a.words.length !== b.words.length) return 'a text with another number of words';
  if (a.between.some((gap, index) => gap !== b.between[index])) return 'a text with other punctuation';
  let start = 0;
  for (let index = 0; index < a.words.length; index++) {
    // A compound goes on while the next word is joined to this one by one joining character.
    if (index + 1 < a.words.length && JOINERS.has(a.between[index + 1]!)) continue;
    const one = join(a, [start, index]);
    const other = join(b, [start, index]);
    if (one !== other) pairs.push([one, other]);
    start = index + 1;
  }
  return undefined;
}

/**
 * The characters that join words into one value when they stand alone between them: an address
 * (ada@acme.io), a date (2026-11-27), a decimal (120.50), a path or a code (K-1234). Not an
 * apostrophe (Ada's is Ada), a colon (first:Ada is a field and its value) or anything with a space.
 */
const JOINERS = new Set(['-', '.', '@', '/', '+']);

type Split = { words: string[]; between: string[] };

/** Words and the text before each of them (`between[i]` precedes `words[i]`; the last entry follows the last word). */
function split(text: string): Split {
  const words: string[] = [];
  const between: string[] = [];
  let at = 0;
  for (const match of text.matchAll(WORD)) {
    between.push(text.slice(at, match.index));
    words.push(match[0]);
    at = match.index + match[0].length;
  }
  between.push(text.slice(at));
  return { words, between };
}

function join(split: Split, [from, to]: [number, number]): string {
  let out = split.words[from]!;
  for (let index = from + 1; index <= to; index++) out += split.between[index]! + split.words[index]!;
  return out;
}

function parseJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

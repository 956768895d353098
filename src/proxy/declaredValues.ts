import { accept, refuse, type Outcome } from '../errors/refusal.js';
import { isParamName } from '../params/paramName.js';

/**
 * The values a client declares for one request (the `Rote-Params` header: a flat JSON object of
 * names to values), and how they become template variables in a conversation and back.
 *
 * A value is templated only where it stands as a whole token: not inside a longer word or number
 * ("Ann" in "Annual" stays, "42" in "1427" stays). Two names with the same value, or a value inside
 * another value, cannot be told apart in a text: such a request is not templated at all, and the
 * proxy forwards it (the caller says why). The markers are control characters no client text holds;
 * a text that holds one is refused the same way, never guessed at.
 */
export type DeclaredValues = ReadonlyMap<string, string>;

const OPEN = '\u0001';
const CLOSE = '\u0002';
const MARKER = new RegExp(`${OPEN}([A-Za-z_][A-Za-z0-9_]*)${CLOSE}`, 'g');
/** A letter, a digit or a combining mark: what makes an occurrence part of a longer token. */
const WORD_CHAR = /[\p{L}\p{N}\p{M}_]/u;

/** Reads the header: undefined or empty is no values; anything else must be a flat object of names to strings, numbers or booleans. */
export function parseDeclaredValues(header: string | undefined): Outcome<DeclaredValues> {
  if (header === undefined || header.trim() === '') return accept(new Map());
  let parsed: unknown;
  try {
    parsed = JSON.parse(header);
  } catch {
    return refuse('the Rote-Params header is not JSON: expected an object of names to values, such as {"firstName":"Ada"}');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return refuse('the Rote-Params header must be a JSON object of names to values, such as {"firstName":"Ada"}');
  const values = new Map<string, string>();
  for (const [name, value] of Object.entries(parsed)) {
    if (!isParamName(name)) return refuse(`the Rote-Params header names "${name}", which is not a name: expected a letter or _, then letters, digits and _`);
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return refuse(`the Rote-Params value of "${name}" is ${value === null ? 'null' : typeof value}: expected a string, a number or a boolean`);
    const text = String(value);
    if (text.trim() === '') return refuse(`the Rote-Params value of "${name}" is empty: an empty value cannot be found in a conversation`);
    values.set(name, text);
  }
  return accept(values);
}

/** Why these values cannot be templated in any text, or undefined when they can. */
export function ambiguity(values: DeclaredValues): string | undefined {
  const entries = [...values];
  for (const [name, value] of entries) {
    for (const [other, otherValue] of entries) {
      if (name === other) continue;
      if (value === otherValue) return `parameters "${name}" and "${other}" have the same value: where it appears, which one it is cannot be told`;
      if (otherValue.includes(value)) return `the value of "${name}" is part of the value of "${other}": where it appears, which one it is cannot be told`;
    }
  }
  return undefined;
}

/**
 * Values too common to stand for a parameter wherever they appear: a boolean, or fewer than three
 * characters ("2", "no"). Templating them would make `{"success": false}` in a tool result the
 * same message for every run whose flag is false or true; they stay as they are, so a request with
 * another such value is another path (a miss), never a wrong hit.
 */
export function templatable(value: string): boolean {
  return value.length >= 3 && !/^(true|false)$/i.test(value);
}

/**
 * The text with every whole-token occurrence of a declared value replaced by its marker, and the
 * names it used. One pass over the text as the client sent it, the longest value first at each
 * place, so a value never matches inside a marker another value left (a value may be a name).
 */
export function templateText(text: string, values: DeclaredValues): Outcome<{ text: string; used: Set<string> }> {
  if (text.includes(OPEN) || text.includes(CLOSE)) return refuse('a message holds the control characters U+0001 or U+0002, which the proxy uses to mark values');
  const candidates = [...values].filter(([, value]) => templatable(value)).sort((a, b) => b[1].length - a[1].length);
  const used = new Set<string>();
  if (candidates.length === 0) return accept({ text, used });
  let out = '';
  let at = 0;
  while (at < text.length) {
    const found = candidates.find(([, value]) => text.startsWith(value, at) && wholeToken(text, at, value.length));
    if (found) {
      out += OPEN + found[0] + CLOSE;
      used.add(found[0]);
      at += found[1].length;
    } else {
      out += text[at];
      at++;
    }
  }
  return accept({ text: out, used });
}

function wholeToken(text: string, at: number, length: number): boolean {
  const before = at > 0 ? text.slice(Math.max(0, at - 2), at) : '';
  const after = text.slice(at + length, at + length + 2);
  const lastBefore = [...before].at(-1);
  const firstAfter = [...after][0];
  return !(lastBefore !== undefined && WORD_CHAR.test(lastBefore)) && !(firstAfter !== undefined && WORD_CHAR.test(firstAfter));
}

/** The names a templated text holds. */
export function namesIn(template: string): Set<string> {
  return new Set([...template.matchAll(MARKER)].map((match) => match[1]!));
}

/** The template with this request's values; refused when it needs a name the request did not declare. */
export function renderText(template: string, values: DeclaredValues): Outcome<string> {
  for (const name of namesIn(template)) if (!values.has(name)) return refuse(`the stored reply holds parameter "${name}", which this request does not declare`);
  return accept(template.replace(MARKER, (_, name: string) => values.get(name)!));
}

/** A template as a person reads it: `{{name}}` where a value was. */
export function readableTemplate(template: string): string {
  return template.replace(MARKER, (_, name: string) => `{{${name}}}`);
}

import { accept, refuse, type Outcome } from '../errors/refusal.js';
import { renderText, templatable, templateText, type DeclaredValues } from './declaredValues.js';

/**
 * Declared values inside JSON text (a tool call's arguments): templated leaf by leaf, so a value
 * is found whatever JSON escaping it needed, and rendered back as valid JSON whatever the new value
 * holds (quotes, backslashes). A number that is a declared value is templated too, and comes back
 * as a number: a reply that ordered 42 units for {"qty":"42"} orders 43 for {"qty":"43"}, never 42.
 * Text that is not JSON is templated as text. JSON that holds no declared value is kept byte for
 * byte; JSON that does comes back in one canonical spelling (keys in their order, no spaces): the
 * same value, not the same bytes. JSON that JavaScript cannot read back exactly (an integer beyond
 * 2^53, such as a 19-digit id) is refused, never rounded.
 */

/** Marks a templated number leaf, so that it renders as a number and not as a string. */
const NUMBER_TAG = '\u0003';

export function templateJsonText(text: string, values: DeclaredValues): Outcome<{ text: string; used: Set<string> }> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return templateText(text, values);
  }
  if (text.includes(NUMBER_TAG) || /\\u0003/i.test(text)) return refuse('a tool call holds the control character U+0003, which the proxy uses to mark values');
  const inexact = inexactNumber(text);
  if (inexact) return refuse(`a tool call holds the number ${inexact}, which JavaScript cannot read back exactly`);
  const used = new Set<string>();
  const walk = (value: unknown): Outcome<unknown> => {
    if (typeof value === 'string') {
      const templated = templateText(value, values);
      if (!templated.ok) return templated;
      templated.value.used.forEach((name) => used.add(name));
      return accept(templated.value.text);
    }
    if (typeof value === 'number') {
      const name = [...values].find(([, declared]) => templatable(declared) && declared === String(value))?.[0];
      if (name === undefined) return accept(value);
      used.add(name);
      return accept(`${NUMBER_TAG}\u0001${name}\u0002`);
    }
    if (Array.isArray(value)) return mapAll(value, walk);
    if (typeof value === 'object' && value !== null) return mapEntries(value as Record<string, unknown>, walk);
    return accept(value);
  };
  const walked = walk(parsed);
  if (!walked.ok) return walked;
  // Nothing of this request in it: the upstream's own bytes.
  return accept({ text: used.size === 0 ? text : JSON.stringify(walked.value), used });
}

/** An integer literal of the JSON text (outside its strings) that a JavaScript number does not hold exactly. */
function inexactNumber(text: string): string | undefined {
  const outsideStrings = text.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  return outsideStrings.match(/-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g)?.find((literal) => /^-?\d+$/.test(literal) && !Number.isSafeInteger(Number(literal)));
}

export function renderJsonText(template: string, values: DeclaredValues): Outcome<string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(template);
  } catch {
    return renderText(template, values);
  }
  const walk = (value: unknown): Outcome<unknown> => {
    if (typeof value === 'string') {
      const rendered = renderText(value.startsWith(NUMBER_TAG) ? value.slice(1) : value, values);
      if (!rendered.ok || !value.startsWith(NUMBER_TAG)) return rendered;
      // Only a plain JSON number that reads back as itself: never "0x10", " 7 " or a 19-digit id.
      const number = Number(rendered.value);
      const plain = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(rendered.value) && Number.isFinite(number) && (!/^-?\d+$/.test(rendered.value) || Number.isSafeInteger(number));
      return plain ? accept(number) : refuse(`the stored reply has a number where a parameter's value was, and this request's value ${JSON.stringify(rendered.value)} is not a plain number`);
    }
    if (Array.isArray(value)) return mapAll(value, walk);
    if (typeof value === 'object' && value !== null) return mapEntries(value as Record<string, unknown>, walk);
    return accept(value);
  };
  const walked = walk(parsed);
  return walked.ok ? accept(JSON.stringify(walked.value)) : walked;
}

function mapAll(items: readonly unknown[], walk: (value: unknown) => Outcome<unknown>): Outcome<unknown[]> {
  const out: unknown[] = [];
  for (const item of items) {
    const walked = walk(item);
    if (!walked.ok) return walked;
    out.push(walked.value);
  }
  return accept(out);
}

function mapEntries(object: Record<string, unknown>, walk: (value: unknown) => Outcome<unknown>): Outcome<Record<string, unknown>> {
  const out: [string, unknown][] = [];
  for (const [key, item] of Object.entries(object)) {
    const walked = walk(item);
    if (!walked.ok) return walked;
    out.push([key, walked.value]);
  }
  // fromEntries, not assignment: a "__proto__" key stays a key.
  return accept(Object.fromEntries(out));
}

import { RoteError } from '../errors/roteError.js';
import { applyFormats, parseFormatSpec, type Format } from './format.js';
import type { BoundParams } from './boundParams.js';
import { SECRET_MASK, secretPattern } from './secret.js';
import { placeholderPattern } from './paramName.js';
import { templatizePlain, type FieldKind } from './plainTemplate.js';

export type { FieldKind } from './plainTemplate.js';

/** `{{name}}` or `{{name|format}}` (see format.ts: `{{dob|date:MM/DD/YYYY}}`, `{{name|word:1|upper}}`). */
const PLACEHOLDER = placeholderPattern({ global: true });

/** Parameter names a template refers to, in order of first use. */
export function templateNames(template: string): string[] {
  const names = new Set<string>();
  for (const match of template.matchAll(PLACEHOLDER)) names.add(match[1]!);
  return [...names];
}

/** Each placeholder's parameter and formats, in order (a name may appear with several formats). */
export function templateUses(template: string): { name: string; formats: Format[] }[] {
  return [...template.matchAll(PLACEHOLDER)].map((match) => ({ name: match[1]!, formats: match[2] ? parseFormatSpec(match[2]) : [] }));
}

export function isTemplate(text: string): boolean {
  return templateNames(text).length > 0;
}

/** Names a template uses that `params` lacks. */
export function missingNames(template: string, params: BoundParams): string[] {
  return templateNames(template).filter((name) => !params.has(name));
}

/** The value rendered in the placeholder's format; null when the value cannot be (not a date...). */
function renderPlaceholder(value: string, spec: string | undefined): string | null {
  if (spec === undefined || spec.trim() === '') return value;
  return applyFormats(value, parseFormatSpec(spec));
}

/** Renders `{{name}}` placeholders; every name must be bound (checked up front by the caller). */
export function renderTemplate(template: string, params: BoundParams): string {
  return template.replace(PLACEHOLDER, (whole, name: string, spec: string | undefined) => {
    const value = params.get(name);
    if (value === undefined) throw new RoteError('invalid-argument', `template ${JSON.stringify(template)} names {{${name}}}, but no such parameter was given`);
    const rendered = renderPlaceholder(value, spec);
    if (rendered === null) {
      const shown = params.isSecret(name) ? 'its value' : `its value ${JSON.stringify(value)}`;
      throw new RoteError('invalid-argument', `${whole}: ${shown} cannot be rendered as ${spec!.trim()}`);
    }
    return rendered;
  });
}

/** Renders a template for logs and results: secret parameters shown as the mask, unknown names left as they are. */
export function renderForDisplay(template: string, params: BoundParams): string {
  return template.replace(PLACEHOLDER, (whole, name: string, spec: string | undefined) => {
    if (params.isSecret(name)) return SECRET_MASK;
    const value = params.get(name);
    return value === undefined ? whole : (safeRender(value, spec) ?? whole);
  });
}

/**
 * Renders only the placeholders of known parameters; any other `{{...}}` stays literal text.
 * How an agent's typed text is bound: it may type `{{password}}` for a secret it cannot see.
 */
export function renderKnown(text: string, params: BoundParams): string {
  return text.replace(PLACEHOLDER, (whole, name: string, spec: string | undefined) => {
    const value = params.get(name);
    return value === undefined ? whole : (safeRender(value, spec) ?? whole);
  });
}

function safeRender(value: string, spec: string | undefined): string | null {
  try {
    return renderPlaceholder(value, spec);
  } catch {
    return null;
  }
}

/**
 * Replaces every occurrence of a secret value in `text` by its `{{name}}`, whatever its length
 * and wherever it stands (inside a word too, or URL-encoded), leaving existing placeholders alone.
 */
export function hideSecrets(text: string, params: BoundParams, where: TextKind = 'text'): { template: string; ambiguous: string[][]; found: SecretFound[] } {
  const byValue = new Map<string, string[]>();
  for (const name of params.secretNames) {
    const value = params.get(name);
    if (value === undefined || value === '') continue;
    byValue.set(value, [...(byValue.get(value) ?? []), name]);
  }
  const ambiguous: string[][] = [];
  const found: SecretFound[] = [];
  let template = text;
  for (const value of [...byValue.keys()].sort((a, b) => b.length - a.length)) {
    const names = byValue.get(value)!;
    // Split on placeholders (kept by the capture group at odd indexes) and replace only between them.
    const parts = template.split(placeholderPattern({ capture: false }));
    const pattern = secretPattern(value);
    let count = 0;
    let alone = true;
    for (let i = 0; i < parts.length; i += 2) {
      // Percent- or form-encoded too (a URL carries it so): nothing of it is ever kept.
      parts[i] = parts[i]!.replace(pattern, (match: string, offset: number, part: string) => {
        count++;
        if (!standsAlone(part[offset - 1], part[offset + match.length], where)) alone = false;
        return `{{${names[0]}}}`;
      });
    }
    if (count === 0) continue;
    // A plain parameter holding the same value (username "admin", password "admin") or holding it
    // inside its own (a phone number around a PIN) may be what was typed: the text stands for them
    // too, and a replay types it only while they agree, never a secret into a plain field.
    const holders = params
      .plainEntries()
      .filter(([, other]) => other.includes(value))
      .map(([name]) => name);
    if (names.length + holders.length > 1) ambiguous.push([...names, ...holders]);
    found.push({ names, count, alone });
    template = parts.join('');
  }
  return { template, ambiguous, found };
}

/**
 * A secret value found in a text: the parameters holding it, how many times it stood there, and
 * whether every time it stood alone (see standsAlone) rather than inside other text, where it may
 * be by chance ("1990" in "1990-04-01").
 */
export type SecretFound = { names: string[]; count: number; alone: boolean };

/** Where a text stands: typed text (or a tool's argument), or a URL, whose parts have delimiters of their own. */
export type TextKind = 'text' | 'url';

/**
 * Whether a secret found between these two characters stands as a whole: the whole text, a word
 * between spaces, or a whole path segment or query value of a URL (`token=...&`). Anything else
 * ("1990" in "1990-04-01") may hold it by chance.
 */
function standsAlone(before: string | undefined, after: string | undefined, where: TextKind): boolean {
  const delimiter = where === 'url' ? /[\s/?&=#;+]/ : /\s/;
  return (before === undefined || delimiter.test(before)) && (after === undefined || delimiter.test(after));
}

export type Templatized = {
  template: string;
  /** Parameters whose values were equal, so the text could stand for any of them. */
  ambiguous: string[][];
  /**
   * Parameters the text renders in a way that cannot be told for sure (01/01/2001: month first or
   * day first?), or that several parameters could have produced: the text stays literal, and a
   * replay with another value for any of them must not type it.
   */
  literal: string[];
  /**
   * The secrets found in the text, all hidden as `{{name}}` (a secret is never kept). Where the
   * agent did not type them by name, nothing proves the text held the secret rather than a chance
   * equal (a PIN 1990 inside a date 1990-04-01): the caller guards those (see templatedAction).
   */
  secretsFound: SecretFound[];
  /** Parameters the whole text is one piece of (see BoundParams.piecesNamed); the strong ones are in `literal` too. */
  pieceOf: string[];
  /** The whole text renders one parameter in ways that disagree: each way, for a later value to decide (see NodeState.readings). */
  readings?: { param: string; formats: string[] };
};

/**
 * Replaces parameter values in recorded text by their names, with the format they were typed in.
 * Text equal to a value becomes `{{name}}`; text that renders a value another way becomes
 * `{{name|format}}` (04/01/1990 from 1990-04-01: `{{dob|date:MM/DD/YYYY}}`). Inside a longer text,
 * a rendering standing as a whole word (values under 3 characters only when whole) is replaced,
 * longest first, so "John Smith" becomes "{{first}} {{last}}". Several parameters with the same
 * value are kept as an ambiguity, which a replay resolves only when their new values agree; a
 * rendering that is itself unsure stays literal (see `literal`).
 * Secret values are replaced wherever they stand, whatever their length (see hideSecrets).
 */
export function templatize(text: string, params: BoundParams, where: TextKind = 'text', fieldKind?: FieldKind): Templatized {
  // Secrets first, anywhere in the text: a secret value is never kept, however short.
  const hidden = hideSecrets(text, params, where);
  const rest = templatizePlain(hidden.template, params, fieldKind);
  return { ...rest, ambiguous: [...hidden.ambiguous, ...rest.ambiguous], secretsFound: hidden.found, pieceOf: rest.pieceOf ?? [] };
}


import { RoteError } from '../errors/roteError.js';
import { applyFormats, formatSpec, inferFormat, parseFormatSpec, renderingsOf, type Format, type Inference } from './format.js';
import type { BoundParams } from './boundParams.js';
import { isStructuredValue } from './formats/structured.js';
import type { ParamKind } from './paramType.js';
import { SECRET_MASK, secretPattern } from './secret.js';
import { placeholderPattern } from './paramName.js';

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

type Reading = { name: string; value: string; formats: Format[] | 'unsure'; options?: Format[][] };

function placeholder(name: string, formats: readonly Format[]): string {
  return formats.length === 0 ? `{{${name}}}` : `{{${name}|${formatSpec(formats)}}}`;
}

/**
 * What one text (whole, or a word run inside a longer text) stands for: a template, an
 * ambiguity between equal values, or literal because it cannot be told safely.
 */
function resolveReadings(readings: readonly Reading[]): { template: string; ambiguous?: string[] } | { literal: string[] } {
  const exact = readings.filter((reading) => reading.formats !== 'unsure' && reading.formats.length === 0);
  // The value itself, typed as given, beats any derivation of another parameter (a first name
  // typed "John" is {{first}}, not the first word of {{fullName}}).
  if (exact.length > 0) return exact.length > 1 ? { template: placeholder(exact[0]!.name, []), ambiguous: exact.map((reading) => reading.name) } : { template: placeholder(exact[0]!.name, []) };
  const sure = readings.filter((reading): reading is Reading & { formats: Format[] } => reading.formats !== 'unsure');
  if (sure.length === readings.length && sure.length > 0) {
    const first = sure[0]!;
    const spec = formatSpec(first.formats);
    // Equal values typed the same way (billing and shipping city) are an ordinary ambiguity.
    if (sure.every((reading) => reading.value === first.value && formatSpec(reading.formats) === spec)) {
      return sure.length > 1 ? { template: placeholder(first.name, first.formats), ambiguous: sure.map((reading) => reading.name) } : { template: placeholder(first.name, first.formats) };
    }
  }
  return { literal: [...new Set(readings.map((reading) => reading.name))] };
}

/**
 * What a field's own kind says of the text it holds: a native date input holds a date, whatever
 * else its digits could render (2020-08-29 is no phone number there).
 */
export type FieldKind = Extract<ParamKind, 'date' | 'time'>;

/** The kind a value is read as in a field of `fieldKind`: the declared one, else the field's. */
function readingKind(declared: ParamKind | undefined, fieldKind: FieldKind | undefined): ParamKind | undefined {
  return declared ?? fieldKind;
}

/** What plain (non-secret) parameters make of a text: `templatize`'s result but for the secrets. */
type PlainTemplatized = Omit<Templatized, 'secretsFound' | 'pieceOf'> & { pieceOf?: string[] };

function templatizePlain(text: string, params: BoundParams, fieldKind?: FieldKind): PlainTemplatized {
  const entries = params.plainEntries().filter(([, value]) => value.trim() !== '');
  const whole = wholeTextReadings(text, entries, params, fieldKind);
  if (whole.length > 0) return templatizeWhole(text, whole);
  // A piece of a value on its own (the day 11 of 2011-10-11 typed in a field of its own): no format
  // states which piece, so it stays literal; a strong piece is guarded at once (see PieceStrength).
  const pieces = params.piecesNamed(text);
  if (pieces.length > 0) {
    return { template: text, ambiguous: [], literal: pieces.filter((piece) => piece.strength === 'strong').map((piece) => piece.name), pieceOf: pieces.map((piece) => piece.name) };
  }

  // Inside a longer text: every rendering of every value, longest first.
  return replaceRenderings(text, renderingsByText(entries, params));
}

/** The parameters the whole text renders, each with the format it was typed in (or unsure). */
function wholeTextReadings(text: string, entries: readonly [string, string][], params: BoundParams, fieldKind: FieldKind | undefined): Reading[] {
  const whole: Reading[] = [];
  for (const [name, value] of entries) {
    const inference: Inference = value === text ? { kind: 'match', formats: [] } : inferFormat(value, text, readingKind(params.kind(name), fieldKind));
    if (inference.kind === 'match') whole.push({ name, value, formats: wordOfPieces(inference.formats, value, params.kind(name)) ? 'unsure' : inference.formats });
    else if (inference.kind === 'ambiguous') whole.push({ name, value, formats: 'unsure', options: inference.readings });
  }
  return whole;
}

/** The whole text as one placeholder, an ambiguity between equal values, or literal (with its readings when one parameter reads several ways). */
function templatizeWhole(text: string, whole: readonly Reading[]): PlainTemplatized {
  const ambiguous: string[][] = [];
  const resolved = resolveReadings(whole);
  if ('literal' in resolved) {
    // One parameter read more than one way: a later value may tell which (see NodeState.readings).
    const only = whole.length === 1 ? whole[0]! : undefined;
    const readings = only?.options ? { param: only.name, formats: only.options.map((chain) => formatSpec(chain)) } : undefined;
    return { template: text, ambiguous, literal: resolved.literal, ...(readings ? { readings } : {}) };
  }
  if (resolved.ambiguous) ambiguous.push(resolved.ambiguous);
  return { template: resolved.template, ambiguous, literal: [] };
}

/** Every rendering of every value that may be templated inside a longer text, with the parameters that render it so. */
function renderingsByText(entries: readonly [string, string][], params: BoundParams): Map<string, Reading[]> {
  const byRendering = new Map<string, Reading[]>();
  for (const [name, value] of entries) {
    // A value too short to be told from other text ("12" in "Qty 12") is not templated inside a
    // longer text; where it stands as a word the text stays literal, guarded like an unsure one.
    if (value.length < 3) byRendering.set(value, [...(byRendering.get(value) ?? []), { name, value, formats: 'unsure' }]);
    for (const rendering of renderingsOf(value, params.kind(name))) {
      if (rendering.text.length < 3 || rendering.inference.kind === 'none') continue;
      let formats: Reading['formats'] = rendering.inference.kind === 'match' ? rendering.inference.formats : 'unsure';
      // Inside a longer text a case change is weak evidence ("Evening (6-9 PM)" for shift=evening
      // is a label, not the value in title case): not templated, but guarded as unsure.
      if (formats !== 'unsure' && (formats.some((format) => format.kind === 'case') || wordOfPieces(formats, value, params.kind(name)))) formats = 'unsure';
      byRendering.set(rendering.text, [...(byRendering.get(rendering.text) ?? []), { name, value, formats }]);
    }
  }
  return byRendering;
}

/** Replaces each rendering standing as a whole word in `text`, longest first, by its placeholder, or keeps it literal when it cannot be told safely. */
function replaceRenderings(text: string, byRendering: ReadonlyMap<string, readonly Reading[]>): PlainTemplatized {
  const ambiguous: string[][] = [];
  const literal = new Set<string>();
  let template = text;
  // Replaced runs become tokens until the end, so a shorter rendering is not found inside a
  // placeholder or inside a run kept literal (the year of an unsure date).
  const tokens: string[] = [];
  const token = (replacement: string) => `\u0000${tokens.push(replacement) - 1}\u0000`;
  for (const rendering of [...byRendering.keys()].sort((a, b) => b.length - a.length)) {
    // A number touching other digits through . , : / - is part of a longer number (1234.56, 2024-0117).
    const pattern = new RegExp(`(?<![\\p{L}\\p{N}_{\u0000])(?<!\\p{N}[.,:/-])${escapeRegExp(rendering)}(?![\\p{L}\\p{N}_}\u0000])(?![.,:/-]\\p{N})`, 'gu');
    if (!pattern.test(template)) continue;
    const resolved = resolveReadings(byRendering.get(rendering)!);
    if ('literal' in resolved) {
      resolved.literal.forEach((name) => literal.add(name));
      template = template.replace(pattern, () => token(rendering));
      continue;
    }
    if (resolved.ambiguous) ambiguous.push(resolved.ambiguous);
    template = template.replace(pattern, () => token(resolved.template));
  }
  template = template.replace(/\u0000(\d+)\u0000/g, (_whole, index: string) => tokens[Number(index)]!);
  return { template, ambiguous, literal: [...literal] };
}

/**
 * A word of a date, time, amount or phone value ("8:04" of "8:04 PM", "(555)" of a phone): the next
 * value's word is another piece (14:30 has no second word; 555-867-5309 has one), so it is no
 * template, only text kept literal and guarded.
 */
function wordOfPieces(formats: readonly Format[], value: string, kind: ParamKind | undefined): boolean {
  return formats.some((format) => format.kind === 'word') && isStructuredValue(value, kind);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

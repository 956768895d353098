import { formatSpec, inferFormat, renderingsOf, type Format, type Inference } from './format.js';
import type { BoundParams } from './boundParams.js';
import { isStructuredValue } from './formats/structured.js';
import type { ParamKind } from './paramType.js';
import type { Templatized } from './template.js';

// Finding parameter values in text that holds no secret, and writing them as templates (see templatize in template.ts).

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

export function templatizePlain(text: string, params: BoundParams, fieldKind?: FieldKind): PlainTemplatized {
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

import { actionTexts } from '../actions/actionText.js';
import type { Format } from '../params/format.js';
import { datePieces } from '../params/formats/date.js';
import { timePieces } from '../params/formats/time.js';
import type { BoundParams } from '../params/boundParams.js';
import { renderTemplate, templateUses } from '../params/template.js';
import type { TrajectoryNode } from '../trajectory/trajectoryNode.js';
import type { NodePatch } from '../trajectory/nodeBuilder.js';

/**
 * Guards the weak pieces of a value that the run asked in pieces. A step holding only "5" where a
 * date's day is 5 is a day field when the same date is asked piece by piece elsewhere in the run
 * (its month chosen by name, its year typed as {{dob|date:YYYY}}), and most likely a quantity
 * when it is not: so a one- or two-digit piece is guarded (literalOf, the hash of the recorded
 * value) only where its parameter has another piece or part in the run. Strong pieces were
 * guarded when recorded. Runs before the run's other bookkeeping (the guards are uses). Returns the
 * patches of the new nodes it guards, by id; the nodes themselves are not changed.
 */
export function guardPiecesAskedTwice(steps: readonly TrajectoryNode[], isNew: (node: TrajectoryNode) => boolean, valueHashes: Readonly<Record<string, string>>, params: BoundParams): Map<string, NodePatch> {
  const parts = new Map<string, number>();
  const count = (name: string) => parts.set(name, (parts.get(name) ?? 0) + 1);
  for (const node of steps) {
    (node.state.pieces ?? []).forEach(count);
    for (const text of [...actionTexts(node.action), ...(node.state.nameTemplate ? [node.state.nameTemplate] : [])]) {
      for (const use of safeUses(text)) if (isPart(use.formats)) count(use.name);
    }
  }
  const patches = new Map<string, NodePatch>();
  for (const node of steps) {
    if (!isNew(node) || patches.has(node.id)) continue;
    const lone = unbindLonePart(node, parts, valueHashes, params);
    const state = { ...node.state, ...lone?.state };
    const literalOf = { ...state.literalOf };
    for (const name of state.pieces ?? []) {
      const hash = valueHashes[name];
      if ((parts.get(name) ?? 0) < 2 || hash === undefined || literalOf[name] !== undefined) continue;
      literalOf[name] = hash;
    }
    const guarded = Object.keys(literalOf).length > Object.keys(state.literalOf ?? {}).length ? { literalOf } : {};
    const patch = { ...lone, state: { ...lone?.state, ...guarded } };
    if (patch.action || Object.keys(patch.state).length > 0) patches.set(node.id, patch);
  }
  return patches;
}

/**
 * A step typed or chose one part of a date (`{{dob|from:date:MM/DD/YYYY|date:MMMM}}`, see
 * dateParts.ts) where the run asked no other part of it: a lone month, day or year is as likely
 * something else that happened to equal it (a count, a payment day), so the step keeps the text it
 * typed, guarded, as any piece is.
 */
function unbindLonePart(node: TrajectoryNode, parts: ReadonlyMap<string, number>, valueHashes: Readonly<Record<string, string>>, params: BoundParams): NodePatch | undefined {
  if (node.action.type !== 'type') return undefined;
  const [use, ...more] = safeUses(node.action.text);
  if (!use || more.length > 0 || !/^\{\{[^{}]+\}\}$/.test(node.action.text.trim()) || !isDatePart(use.formats) || (parts.get(use.name) ?? 0) >= 2) return undefined;
  const hash = valueHashes[use.name];
  if (hash === undefined) return undefined;
  let typed: string;
  try {
    typed = renderTemplate(node.action.text, params);
  } catch {
    return undefined;
  }
  return {
    action: { ...node.action, text: typed },
    state: { literalOf: { ...node.state.literalOf, [use.name]: hash }, pieces: [...new Set([...(node.state.pieces ?? []), use.name])] },
  };
}

/** A date rendered as some of its parts only (MMMM, D, YYYY), not as a whole date. */
function isDatePart(formats: readonly Format[]): boolean {
  const dates = formats.filter((format): format is Extract<Format, { kind: 'date' }> => format.kind === 'date');
  return dates.length > 0 && dates.every((format) => isPart([format]));
}

/** A rendering of part of a value: a word of it, or a date or time pattern without all its parts (YYYY, MMMM, h:mm). */
function isPart(formats: readonly Format[]): boolean {
  return formats.some((format) => {
    switch (format.kind) {
      case 'word':
        return true;
      case 'date': {
        const tokens = (datePieces(format.pattern) ?? []).flatMap((piece) => ('token' in piece ? [piece.token[0]] : []));
        return !(tokens.includes('Y') && tokens.includes('M') && tokens.includes('D'));
      }
      case 'time': {
        const tokens = (timePieces(format.pattern) ?? []).flatMap((piece) => ('token' in piece ? [piece.token.toLowerCase()[0]] : []));
        return !(tokens.includes('h') && tokens.includes('m'));
      }
      // A date with its time, whole: no part of anything.
      case 'datetime':
      case 'case':
      case 'number':
      case 'money':
      case 'phone':
      case 'from':
      case 'bool':
        return false;
    }
  });
}

function safeUses(text: string): ReturnType<typeof templateUses> {
  try {
    return templateUses(text);
  } catch {
    return [];
  }
}

import { legacyEndKey, LEARNED_LISTS, MAX_LEARNED } from './learnedKeys.js';
import type { NodeLink } from './rows.js';

/**
 * A stored node's state after a link's changes; undefined when the link changes none, or when the
 * stored state is damaged (not a JSON object), which is left as it is: that node stays a miss that
 * names itself. Items are added to list keys (each once, compared as JSON;
 * at most MAX_LEARNED). One rule for both dialects, applied in JavaScript so the state
 * text keeps its key order (a key set in place, a new one last) and re-exports stay byte-identical.
 */
export function patchedState(stored: unknown, link: NodeLink): Record<string, unknown> | undefined {
  const adds = Object.entries(link.state?.add ?? {}).filter(([, items]) => items.length > 0);
  if (adds.length === 0) return undefined;
  if (stored !== null && stored !== undefined && !isObject(stored)) return undefined;
  const state: Record<string, unknown> = { ...((stored as Record<string, unknown> | null | undefined) ?? {}) };
  for (const [key, items] of adds) state[key] = added(state[key], items);
  return state;
}

/**
 * The state an import writes over a stored node: the file's (a reviewed edit applies), with what
 * runs learned since the file was written kept (its learned lists, merged). An end either side
 * kept without keys stands for its recording's values, so it joins the keyed ends rather than
 * being lost (an end learned under other values must not become an end for the recording's).
 */
export function importedState(file: { state: unknown; endsRun: boolean }, stored: { state: unknown; endsRun: boolean }): unknown {
  if (!isObject(file.state)) return file.state;
  if (!isObject(stored.state)) {
    // The stored node ends under values its damaged state no longer says: an end that fits no run
    // (the agent is asked there) rather than one for the file's recording values.
    return stored.endsRun && !file.endsRun ? { ...file.state, endsUnder: [] } : file.state;
  }
  const state: Record<string, unknown> = { ...file.state };
  for (const key of LEARNED_LISTS) {
    const mine = Array.isArray(file.state[key]) ? (file.state[key] as unknown[]) : [];
    const theirs = Array.isArray(stored.state[key]) ? (stored.state[key] as unknown[]) : [];
    if (theirs.length === 0) continue;
    if (key === 'endsUnder') {
      const fileEnds = file.endsRun && file.state.endsUnder === undefined ? [legacyEndKey(file.state)] : mine;
      const storedEnds = stored.endsRun && stored.state.endsUnder === undefined ? [legacyEndKey(stored.state)] : theirs;
      state.endsUnder = added(fileEnds, storedEnds);
      continue;
    }
    state[key] = added(mine, theirs);
  }
  if (state.endsUnder === undefined && file.endsRun !== stored.endsRun && stored.endsRun) {
    // The stored node ends and the file's does not: the stored end keeps the values it stood for.
    if (isObject(stored.state) && stored.state.endsUnder !== undefined) state.endsUnder = stored.state.endsUnder;
    else state.endsUnder = [legacyEndKey(stored.state)];
  }
  return state;
}

/**
 * `list` with `items` added, each once (as JSON), up to MAX_LEARNED of each group; past that, new
 * items are not kept (their values hand over again each time, a cost). Keys already kept are never
 * dropped: a forgotten key could turn a fork that must be handed over (two paths learned under the
 * same values) into a choice. The values a click sets are counted per parameter.
 */
function added(list: unknown, items: readonly unknown[]): unknown[] {
  const result = Array.isArray(list) ? [...(list as unknown[])] : [];
  const known = new Set(result.map((item) => JSON.stringify(item)));
  const groupOf = (item: unknown) => (isObject(item) && typeof item.param === 'string' && !('ahead' in item) ? item.param : '');
  const counts = new Map<string, number>();
  for (const item of result) counts.set(groupOf(item), (counts.get(groupOf(item)) ?? 0) + 1);
  for (const item of items) {
    const text = JSON.stringify(item);
    const group = groupOf(item);
    if (known.has(text) || (counts.get(group) ?? 0) >= MAX_LEARNED) continue;
    known.add(text);
    counts.set(group, (counts.get(group) ?? 0) + 1);
    result.push(item);
  }
  return result;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A state column's text parsed; a damaged one stays its text, which patchedState leaves alone. */
export function parsedStateText(text: string | null): unknown {
  if (text === null) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

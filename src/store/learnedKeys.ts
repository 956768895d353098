/**
 * The stored form of what runs learned about a step's values (the engine's valueKeys.ts reads
 * them): a key is `{ ahead, watched?, valueHashes }`, always written in one form so that keys are
 * compared as JSON wherever they meet (a run's links, a folded step, an import).
 */
export type StoredKey = { ahead: string[]; watched?: string[]; valueHashes: Record<string, string> };

/** A key in its one written form: names sorted, `watched` only when it names any, hashes by name. */
export function canonicalKey(ahead: Iterable<string>, watched: Iterable<string>, valueHashes: Readonly<Record<string, string>>): StoredKey {
  const watchedNames = [...new Set(watched)].sort();
  const hashes = Object.fromEntries(Object.entries(valueHashes).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return { ahead: [...new Set(ahead)].sort(), ...(watchedNames.length > 0 ? { watched: watchedNames } : {}), valueHashes: hashes };
}

type KeyedState = { ahead?: unknown; watchedAhead?: unknown; watches?: unknown; valueHashes?: unknown; endsUnder?: unknown };

/** The path that recorded a step, from its state. */
export function recordedKey(state: KeyedState): StoredKey {
  return canonicalKey(strings(state.ahead), strings(state.watchedAhead), hashes(state.valueHashes));
}

/**
 * An end kept before ends had keys stands for the values of the run that recorded its step. Only
 * what the step itself watches counts as checked: `watchedAhead` also holds what later steps of
 * its recording watched, which a run ending here never reaches.
 */
export function legacyEndKey(state: KeyedState): StoredKey {
  return canonicalKey([], ownWatches(state.watches), hashes(state.valueHashes));
}

function ownWatches(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((watch) => (typeof watch === 'object' && watch !== null && typeof (watch as { param?: unknown }).param === 'string' ? [(watch as { param: string }).param] : []));
}

/** The state keys that hold what runs learned, lists added to item by item. */
export const LEARNED_LISTS = ['alsoUnder', 'endsUnder', 'setsValue'] as const;

/**
 * Items a list keeps at most. Each learned key came from a run the agent did, so a value that
 * never repeats (an unused note, a record id) would add one per run: past this many, new values
 * are not learned (they hand over again each time), and the state stays small. Kept keys stay.
 */
export const MAX_LEARNED = 64;

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function hashes(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

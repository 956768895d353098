import { z } from 'zod';
import { canonicalKey, legacyEndKey } from '../store/learnedKeys.js';
import type { NodeState, TrajectoryNode } from './trajectoryNode.js';

/**
 * The values one path through a step was learned under. A run that went through the step put
 * `ahead` on the page from the step on (and checked `watched` where the page showed them); every
 * other value could only have decided the path, unseen (how many times to click, which of two
 * buttons), so it is kept as a hash (never the value) and a later run may follow that path only
 * with the same value.
 */
export const valueKeySchema = z.object({
  ahead: z.array(z.string()),
  watched: z.array(z.string()).optional(),
  valueHashes: z.record(z.string(), z.string()),
});
export type ValueKey = z.infer<typeof valueKeySchema>;

/** What a run brings to a place: its values (hashed; secrets have none) and the parameters its steps so far put on the page. */
export type RunValues = {
  names: readonly string[];
  valueHashes: Readonly<Record<string, string>>;
  usedSoFar: ReadonlySet<string>;
};

/** The ways runs went through a step: the one that recorded it, then those learned since. */
export function arrivalsOf(state: NodeState): ValueKey[] {
  return [keyOf(state.ahead ?? [], state.watchedAhead ?? [], state.valueHashes ?? {}), ...(state.alsoUnder ?? [])];
}

/**
 * The values runs ended at a step under. An end stored before these were kept stands for the
 * values of the run that recorded the step (its own hashes, the values it watched): the run most
 * likely to have ended there.
 */
export function endKeysOf(node: TrajectoryNode): ValueKey[] {
  if (!node.endsRun) return [];
  return node.state.endsUnder ?? [legacyEndKey(node.state)];
}

/** A key in its one written form (the store's: keys are compared as JSON wherever they meet). */
export function keyOf(ahead: Iterable<string>, watched: Iterable<string>, valueHashes: Readonly<Record<string, string>>): ValueKey {
  return canonicalKey(ahead, watched, valueHashes);
}

/** Whether `keys` holds `key` already. */
export function holdsKey(keys: readonly ValueKey[], key: ValueKey): boolean {
  const text = JSON.stringify(keyOf(key.ahead, key.watched ?? [], key.valueHashes));
  return keys.some((known) => JSON.stringify(keyOf(known.ahead, known.watched ?? [], known.valueHashes)) === text);
}

/**
 * The first parameter of the run that `key` does not allow: one neither put on the page so far,
 * nor ahead on the key's path, nor watched there, whose value differs from the one the path was
 * learned under (a secret, never hashed, always differs). Undefined: the path fits the run.
 */
export function misfit(key: ValueKey, run: RunValues): string | undefined {
  const ahead = new Set(key.ahead);
  const watched = new Set(key.watched ?? []);
  for (const name of run.names) {
    if (run.usedSoFar.has(name) || ahead.has(name) || watched.has(name)) continue;
    if (run.valueHashes[name] === undefined || key.valueHashes[name] !== run.valueHashes[name]) return name;
  }
  return undefined;
}

/**
 * Whether the path was learned under exactly this run's values, those put on the page included:
 * what tells two paths apart at a fork where both fit (approve when the amount typed before was
 * 500, reject when it was 2000).
 */
export function learnedUnderSame(key: ValueKey, run: RunValues): boolean {
  if (misfit(key, run) !== undefined) return false;
  return Object.entries(key.valueHashes).every(([name, hash]) => run.valueHashes[name] === hash);
}

/** The key of a path through a step, from the run that took it: what it put on the page from there on, what it watched, and the hashes of its other values. */
export function keyOfPath(ahead: ReadonlySet<string>, watched: ReadonlySet<string>, names: readonly string[], valueHashes: Readonly<Record<string, string>>): ValueKey {
  const hashes = Object.fromEntries(names.filter((name) => !ahead.has(name) && valueHashes[name] !== undefined).map((name) => [name, valueHashes[name]!]));
  return keyOf(ahead, watched, hashes);
}

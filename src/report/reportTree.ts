import { actionSchema, describeAction } from '../actions/action.js';
import { namesUsedBy } from '../engine/paramBindings.js';
import type { NodeRow } from '../store/rows.js';
import { nodeFromRow } from '../trajectory/trajectoryNode.js';
import { arrivalsOf, endKeysOf, type ValueKey } from '../trajectory/valueKeys.js';

// A task's stored steps as the report shows them: children under their parents, and what chose each way on.

export type ReportNode = {
  id: string;
  action: string;
  intent: string | null;
  target: string | null;
  hits: number;
  misses: number;
  lastUsedAt: number | null;
  endsRun: boolean;
  /** Where a detour re-joined the recorded path. */
  resumeAtId: string | null;
  /**
   * Parameters whose values chose this step over its alternatives (no step shows them: a count, a
   * choice, a yes/no), each with how many values it was learned for.
   */
  chosenBy: { param: string; values: number }[];
  /** The same for ending the task here rather than going on. */
  endChosenBy: { param: string; values: number }[];
  /** Parameters this step sets by clicking, each with how many values it was learned for. */
  sets: { param: string; values: number }[];
  children: ReportNode[];
};

/** Children under their parents, most used first: the usual path on top, detours below it. */
export function treeOf(rows: readonly NodeRow[]): ReportNode[] {
  const byParent = groupBy(rows, (row) => row.parentId ?? '');
  // usedAbove: the parameters the steps before put on the page, which tell nothing apart below them.
  const build = (parentId: string, seen: Set<string>, endKeys: readonly ValueKey[], usedAbove: ReadonlySet<string>): ReportNode[] => {
    const siblings = (byParent.get(parentId) ?? []).filter((row) => !seen.has(row.id)).sort((a, b) => b.hits - a.hits || a.createdAt - b.createdAt);
    const keys = siblings.map((row) => keysOf(row));
    // Ending the task at the parent is one more way on, told apart by the same values.
    const ways = [...keys.map((known) => known.arrivals), ...(endKeys.length > 0 ? [endKeys] : [])];
    return siblings.map((row, index) => {
      const own = keys[index]!;
      const usedHere = new Set([...usedAbove, ...own.uses]);
      const children = build(row.id, new Set([...seen, row.id]), row.endsRun ? own.ends : [], usedHere);
      const childWays = children.length > 0 ? (byParent.get(row.id) ?? []).map((child) => keysOf(child).arrivals) : [];
      return {
        id: row.id,
        action: describeStored(row.action),
        intent: row.intent,
        target: targetOf(row),
        hits: row.hits,
        misses: row.misses,
        lastUsedAt: row.lastUsedAt,
        endsRun: row.endsRun,
        resumeAtId: row.resumeAtId,
        chosenBy: toldApartBy(own.arrivals, ways.filter((_, other) => other !== index), usedAbove),
        endChosenBy: row.endsRun ? toldApartBy(own.ends, childWays, usedHere) : [],
        sets: own.sets,
        children,
      };
    });
  };
  return build('', new Set(), [], new Set());
}

/** A stored node's value keys and the parameters it puts on the page, read leniently: a row that does not parse has none. */
function keysOf(row: NodeRow): { arrivals: ValueKey[]; ends: ValueKey[]; sets: { param: string; values: number }[]; uses: string[] } {
  const read = nodeFromRow(row);
  if (!read.ok) return { arrivals: [], ends: [], sets: [], uses: [] };
  const node = read.value;
  const sets = [...groupBy(node.state.setsValue ?? [], (set) => set.param)].map(([param, list]) => ({ param, values: new Set(list.map((set) => set.hash)).size }));
  return { arrivals: arrivalsOf(node.state), ends: endKeysOf(node), sets, uses: namesUsedBy(node) };
}

/**
 * The parameters whose learned values differ between one way on and the others, and that nothing
 * on the path shows (not typed above it, not watched on it): what chose it, as a replay reads it.
 */
function toldApartBy(own: readonly ValueKey[], others: readonly (readonly ValueKey[])[], shown: ReadonlySet<string>): { param: string; values: number }[] {
  if (others.length === 0) return [];
  const hashes = (keys: readonly ValueKey[], name: string) => new Set(keys.flatMap((key) => (key.valueHashes[name] !== undefined ? [key.valueHashes[name]] : [])));
  const watched = new Set(own.flatMap((key) => key.watched ?? []));
  const names = [...new Set(own.flatMap((key) => Object.keys(key.valueHashes)))].filter((name) => !shown.has(name) && !watched.has(name)).sort();
  return names.flatMap((name) => {
    const mine = hashes(own, name);
    const differs = others.some((keys) => {
      const theirs = hashes(keys, name);
      return theirs.size > 0 && [...theirs].some((hash) => !mine.has(hash));
    });
    return differs ? [{ param: name, values: mine.size }] : [];
  });
}

/** A stored action in words; one that no longer reads as an action is named as such, not thrown. */
export function describeStored(action: unknown): string {
  const parsed = actionSchema.safeParse(action);
  return parsed.success ? describeAction(parsed.data) : 'an action this version cannot read';
}

export function targetOf(node: NodeRow | undefined): string | null {
  const fingerprint = node?.fingerprint as { role?: unknown; name?: unknown } | null | undefined;
  if (!fingerprint || typeof fingerprint.role !== 'string') return null;
  return typeof fingerprint.name === 'string' && fingerprint.name !== '' ? `${fingerprint.role} "${fingerprint.name}"` : fingerprint.role;
}

export function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

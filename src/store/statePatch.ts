import type { NodeLink } from './rows.js';

/**
 * A stored node's state after a link's changes, or undefined when the link changes none: the end
 * URL set, and items added to list keys (each once, compared as JSON). One rule for both dialects,
 * applied in JavaScript so the state text keeps its key order (a key set in place, a new one last)
 * and re-exports stay byte-identical. A state that is not a JSON object (damaged) is replaced by
 * the changes alone: the node was unreadable before and stays a miss either way.
 */
export function patchedState(stored: unknown, link: NodeLink): Record<string, unknown> | undefined {
  const adds = Object.entries(link.state?.add ?? {}).filter(([, items]) => items.length > 0);
  if (link.endUrl === undefined && adds.length === 0) return undefined;
  const state: Record<string, unknown> = typeof stored === 'object' && stored !== null && !Array.isArray(stored) ? { ...(stored as Record<string, unknown>) } : {};
  if (link.endUrl !== undefined) state.endUrl = link.endUrl;
  for (const [key, items] of adds) {
    const list = Array.isArray(state[key]) ? [...(state[key] as unknown[])] : [];
    const known = new Set(list.map((item) => JSON.stringify(item)));
    for (const item of items) {
      const text = JSON.stringify(item);
      if (known.has(text)) continue;
      known.add(text);
      list.push(item);
    }
    state[key] = list;
  }
  return state;
}

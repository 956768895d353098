import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeRef, ROOT } from '../src/trajectory/nodeRef.js';
import { TrajectoryView } from '../src/engine/trajectoryView.js';
import { SqliteStore } from '../src/store/sqliteStore.js';
import type { Store } from '../src/store/store.js';
import { quantile, round } from './stats.js';
import { storeSyntheticTrajectories, type StoredTrajectories } from './syntheticTrajectories.js';

export type LookupFigures = { trajectories: number; nodes: number; lookups: number; p50Ms: number; p99Ms: number; fileBytes: number };

/**
 * Cache lookup with many stored trajectories: the lookups one replayed step makes (the task row,
 * the candidates after the current node, parsed and validated), timed on a file store holding
 * `trajectories` synthetic trajectories of `steps` nodes each.
 */
export async function measureLookup(trajectories: number, steps: number, lookups: number): Promise<LookupFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'rote-lookup-'));
  const path = join(dir, 'rote.db');
  const store = await SqliteStore.open(path);
  try {
    store.db.$client.pragma('cache_size = -262144');
    // Filled through the store's own prepared statements, many trajectories per transaction.
    const stored = await storeSyntheticTrajectories(store, trajectories, steps);
    const timings = await timeLookups(store, stored, steps, lookups);
    return {
      trajectories,
      nodes: trajectories * steps,
      lookups,
      p50Ms: round(quantile(timings, 0.5), 3),
      p99Ms: round(quantile(timings, 0.99), 3),
      fileBytes: statSync(path).size,
    };
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Times `lookups` lookups of randomly picked stored trajectories, each what a replayed step reads:
 * the task row, then the candidates after the start and after the first node, through a fresh
 * TrajectoryView (so nothing is cached between picks). Milliseconds, one per lookup.
 */
export async function timeLookups(store: Store, stored: StoredTrajectories, steps: number, lookups: number): Promise<number[]> {
  const timings: number[] = [];
  for (let lookup = 0; lookup < lookups; lookup++) {
    const pick = Math.floor(Math.random() * stored.keys.length);
    const key = stored.keys[pick]!;
    const started = performance.now();
    const task = await store.getTask(key);
    const view = new TrajectoryView(store, key);
    const first = await view.candidatesAfter(ROOT);
    const next = await view.candidatesAfter(nodeRef(stored.firstNodes[pick]!));
    timings.push(performance.now() - started);
    if (!task || first.length !== 1 || next.length !== (steps > 1 ? 1 : 0)) throw new Error('lookup benchmark: a stored trajectory did not read back');
  }
  return timings;
}

import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeRef, ROOT } from '../src/engine/cursor.js';
import { TrajectoryView } from '../src/engine/trajectoryView.js';
import { SqliteStore } from '../src/store/sqliteStore.js';
import { quantile, round } from './stats.js';

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
    const keys: string[] = [];
    const firstNodes: string[] = [];
    const now = Date.now();
    store.db.$client.pragma('cache_size = -262144');
    // Filled through the store's own prepared statements, many trajectories per transaction.
    for (let from = 0; from < trajectories; from += 5_000) {
      const batch = [];
      for (let index = from; index < Math.min(trajectories, from + 5_000); index++) {
        const key = `task-${index.toString(36)}-${randomUUID().slice(0, 8)}`;
        keys.push(key);
        const trajectory = [];
        let parentId: string | null = null;
        for (let step = 0; step < steps; step++) {
          const id = randomUUID();
          if (step === 0) firstNodes.push(id);
          trajectory.push({
            id,
            taskId: key,
            parentId,
            action: step % 2 === 0 ? { type: 'click', x: 100 + step, y: 200, button: 'left' } : { type: 'type', text: `{{field${step}}}` },
            intent: `Fill field ${step}`,
            url: `http://127.0.0.1:1/app/${index % 50}`,
            fingerprint: { role: 'textbox', name: `Field ${step}`, tag: 'input', inputType: 'text' },
            box: { x: 100, y: 200 + step * 30, width: 260, height: 22 },
            cropRect: { x: -6, y: -6, width: 272, height: 34 },
            masks: [],
            state: { matches: 1, context: null, ahead: [], valueHashes: {} },
            endsRun: step === steps - 1,
            createdAt: now,
          });
          parentId = id;
        }
        batch.push({ task: { id: key, taskTemplate: `Task ${index} {{name}}`, tags: [], startUrl: 'http://127.0.0.1:1/app', paramNames: [], paramSchema: null, createdAt: now, updatedAt: now }, nodes: trajectory });
      }
      await store.importTrajectories(batch);
    }
    const timings: number[] = [];
    for (let lookup = 0; lookup < lookups; lookup++) {
      const pick = Math.floor(Math.random() * keys.length);
      const started = performance.now();
      const task = await store.getTask(keys[pick]!);
      const view = new TrajectoryView(store, keys[pick]!);
      const first = await view.candidatesAfter(ROOT);
      const next = await view.candidatesAfter(nodeRef(firstNodes[pick]!));
      timings.push(performance.now() - started);
      if (!task || first.length !== 1 || next.length !== (steps > 1 ? 1 : 0)) throw new Error('lookup benchmark: a stored trajectory did not read back');
    }
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

import { randomUUID } from 'node:crypto';
import type { ImportedTrajectory } from '../src/store/rows.js';
import type { Store } from '../src/store/store.js';

/** Trajectories per importTrajectories call: one transaction each. */
const IMPORT_BATCH = 5_000;

/** What a lookup benchmark picks from: each stored task's key and the id of its first node, by index. */
export type StoredTrajectories = { keys: string[]; firstNodes: string[] };

/**
 * Synthetic trajectories number `from` .. `from + count - 1`, each a task of its own with a chain
 * of `steps` nodes shaped like recorded ones (a click or a typed parameter, a fingerprint, a box),
 * so both stores are filled with the same rows and their lookups compare.
 */
export function syntheticTrajectories(from: number, count: number, steps: number, now: number): ImportedTrajectory[] {
  const items: ImportedTrajectory[] = [];
  for (let index = from; index < from + count; index++) {
    const key = `task-${index.toString(36)}-${randomUUID().slice(0, 8)}`;
    const nodes = [];
    let parentId: string | null = null;
    for (let step = 0; step < steps; step++) {
      const id = randomUUID();
      nodes.push({
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
    items.push({ task: { id: key, taskTemplate: `Task ${index} {{name}}`, tags: [], startUrl: 'http://127.0.0.1:1/app', paramNames: [], paramSchema: null, createdAt: now, updatedAt: now }, nodes });
  }
  return items;
}

/**
 * Fills `store` with `trajectories` synthetic trajectories through the store's own import, many
 * per transaction (as an imported recording is stored), and returns what lookups pick from.
 * `progress` hears the count stored so far after each transaction (a PostgreSQL fill takes minutes).
 */
export async function storeSyntheticTrajectories(store: Store, trajectories: number, steps: number, progress?: (stored: number) => void): Promise<StoredTrajectories> {
  const stored: StoredTrajectories = { keys: [], firstNodes: [] };
  const now = Date.now();
  for (let from = 0; from < trajectories; from += IMPORT_BATCH) {
    const batch = syntheticTrajectories(from, Math.min(IMPORT_BATCH, trajectories - from), steps, now);
    for (const item of batch) {
      stored.keys.push(item.task.id);
      stored.firstNodes.push(item.nodes[0]!.id);
    }
    await store.importTrajectories(batch);
    progress?.(from + batch.length);
  }
  return stored;
}

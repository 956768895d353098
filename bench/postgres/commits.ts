// Run commits into the big cache.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { CommitRunInput, NewNodeRow, NodeRow, TaskRow } from '../../src/store/rows.js';
import type { Store } from '../../src/store/store.js';
import { round } from '../stats.js';
import type { StoredTrajectories } from '../syntheticTrajectories.js';
import { timing, type CommitFigures } from './results.js';
import { BRANCH_NODES } from './sizes.js';

/** The engine folds a new node into a stored sibling that is the same step; here, the same action is enough. */
function sameAction(stored: NodeRow, fresh: NodeRow): boolean {
  return JSON.stringify(stored.action) === JSON.stringify(fresh.action);
}

/**
 * What a run that replayed a stored task's first step and then learned the rest with the agent
 * commits (see src/engine/runCommit.ts): the task row, a new 13-node branch under the first node
 * with its crop, the cached node's use count, and the run's 13 steps. Actions carry the commit's
 * number, so no branch is ever equal to a stored one (a fold would write less).
 */
function runCommit(task: TaskRow, firstNode: string, runId: string, commit: number): CommitRunInput {
  const now = Date.now();
  const crop = randomBytes(2_048);
  const cropHash = createHash('sha256').update(crop).digest('hex');
  const newNodes: NewNodeRow[] = [];
  let parentId = firstNode;
  for (let step = 0; step < BRANCH_NODES; step++) {
    const id = randomUUID();
    newNodes.push({
      id,
      taskId: task.id,
      parentId,
      resumeAtId: null,
      action: step % 2 === 0 ? { type: 'click', x: 300 + commit, y: 100 + step * 30, button: 'left' } : { type: 'type', text: `{{field${step}}} ${commit}` },
      intent: `Fill field ${step}`,
      url: 'http://127.0.0.1:1/app/intake',
      fingerprint: { role: 'textbox', name: `Field ${step}`, tag: 'input', inputType: 'text' },
      box: { x: 300, y: 100 + step * 30, width: 260, height: 22 },
      cropHash: step === 0 ? cropHash : null,
      cropRect: { x: -6, y: -6, width: 272, height: 34 },
      masks: [],
      state: { matches: 1, context: null, ahead: [], valueHashes: {} },
      endsRun: step === BRANCH_NODES - 1,
      hits: 1,
      lastUsedAt: now,
      lastSuccessAt: now,
      createdAt: now,
    });
    parentId = id;
  }
  return {
    sameStep: sameAction,
    task: { ...task, updatedAt: now },
    newNodes,
    blobs: [{ hash: cropHash, bytes: crop }],
    nodeStats: [{ id: firstNode, hit: true, usedAt: now, succeeded: true }],
    nodeLinks: [],
    run: { id: runId, taskId: task.id, status: 'mixed', endedAt: now, durationMs: 4_000, agentCalls: BRANCH_NODES, modelCalls: 0, inputTokens: 0, outputTokens: 0, cachedSteps: 1, relocatedSteps: 0, agentSteps: BRANCH_NODES, error: null, screenshotHash: null },
    steps: newNodes.map((node, idx) => ({ runId, idx, nodeId: node.id, kind: 'agent' as const, action: node.action, intent: node.intent ?? null, outcome: 'ok' as const, reason: null, durationMs: 250, checkMs: 20 })),
  };
}

/**
 * `total` commits, `stores.length` at once (one loop per store), each timed from beginRun to the
 * end of commitRun. The task row is read before the clock starts, as the engine has it by then.
 */
export async function measureCommits(stores: readonly Store[], stored: StoredTrajectories, total: number): Promise<CommitFigures> {
  const timings: number[] = [];
  let next = 0;
  const began = performance.now();
  await Promise.all(
    stores.map(async (store) => {
      for (let commit = next++; commit < total; commit = next++) {
        const pick = Math.floor(Math.random() * stored.keys.length);
        const task = await store.getTask(stored.keys[pick]!);
        if (!task) throw new Error(`commit benchmark: task ${stored.keys[pick]} is not stored`);
        const runId = randomUUID();
        const input = runCommit(task, stored.firstNodes[pick]!, runId, commit);
        const started = performance.now();
        await store.beginRun({ id: runId, taskId: task.id, task: task.taskTemplate, mode: 'auto', startedAt: Date.now(), pid: process.pid });
        await store.commitRun(input);
        timings.push(performance.now() - started);
      }
    }),
  );
  const wallS = (performance.now() - began) / 1000;
  return { inFlight: stores.length, ...timing(timings), commitsPerSecond: round(total / wallS, 1) };
}

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NewRunStepRow } from '../store/rows.js';
import { openStore, type Store } from '../store/store.js';
import { loadReport } from './reportModel.js';

let store: Store;
beforeEach(async () => {
  store = await openStore(':memory:');
});
afterEach(async () => {
  await store.close();
});

const click = { type: 'click', x: 10, y: 20, button: 'left' };
const step = (runId: string, idx: number, kind: NewRunStepRow['kind'], over: Partial<NewRunStepRow> = {}): NewRunStepRow => ({
  runId,
  idx,
  nodeId: null,
  kind,
  action: click,
  intent: `step ${idx}`,
  outcome: 'ok',
  reason: null,
  durationMs: 5,
  checkMs: 1,
  ...over,
});

async function storeRun(id: string, startedAt: number, status: 'replayed' | 'mixed', steps: NewRunStepRow[]): Promise<void> {
  await store.beginRun({ id, taskId: null, task: 'Do {{thing}}', mode: 'auto', startedAt, pid: process.pid });
  await store.commitRun({
    run: { id, taskId: null, status, endedAt: startedAt + 100, durationMs: 100, agentCalls: status === 'mixed' ? 1 : 0, cachedSteps: 0, relocatedSteps: 0, agentSteps: 0, modelCalls: 0, inputTokens: 0, outputTokens: 0, error: null },
    steps,
  });
}

describe('loadReport', () => {
  it('names the first cached step after the agent re-joined, and puts a divergence with its images beside its step', async () => {
    await storeRun('run-a', 1000, 'mixed', [
      step('run-a', 0, 'agent', { intent: 'Dismiss the popup' }),
      step('run-a', 1, 'cached'),
      step('run-a', 2, 'cached'),
      step('run-a', 0, 'cached', { outcome: 'diverged', reason: 'something covers it', expectedHash: 'e', actualHash: 'a', diffHash: 'd', durationMs: 0, checkMs: 0 }),
    ]);
    const [run] = (await loadReport(store, {})).runs;
    expect(run!.steps.map((s) => s.kind)).toEqual(['agent', 'rejoined', 'cached']);
    expect(run!.counts).toEqual({ cached: 1, relocated: 0, agent: 1, rejoined: 1 });
    expect(run!.divergences).toEqual([expect.objectContaining({ index: 0, reason: 'something covers it', expected: 'e', actual: 'a', diff: 'd', action: 'click (10, 20)' })]);
  });

  it("links runs to the schedule whose slots made them, and --schedule reads only that schedule's runs", async () => {
    await storeRun('run-1', 1000, 'replayed', [step('run-1', 0, 'cached')]);
    await storeRun('run-2', 2000, 'replayed', [step('run-2', 0, 'cached')]);
    await storeRun('run-3', 3000, 'replayed', [step('run-3', 0, 'cached')]);
    await store.schedules.add({ id: 's1', name: 'nightly', cron: '0 2 * * *', timezone: 'UTC', job: { task: 'Do {{thing}}' }, onFailure: null, enabled: true, createdAt: 1, updatedAt: 1 });
    await store.schedules.beginSlot({ id: 'slot-1', scheduleId: 's1', slotAt: 1000, pid: process.pid, startedAt: 1000, trigger: 'cron' });
    // A retried row: both attempts' runs belong to the slot.
    await store.schedules.finishSlot('slot-1', { status: 'succeeded', summary: { runIds: ['run-1', 'run-2'], results: [{ runId: 'run-2' }] } });
    const all = await loadReport(store, {});
    expect(all.runs.map((run) => [run.id, run.schedules])).toEqual([
      ['run-3', []],
      ['run-2', ['nightly']],
      ['run-1', ['nightly']],
    ]);
    expect(all.schedules[0]!.slots[0]!.runIds).toEqual(['run-1', 'run-2']);
    const nightly = await loadReport(store, { scheduleName: 'nightly', since: 1500 });
    expect(nightly.runs.map((run) => run.id)).toEqual(['run-2']);
    expect(nightly.scope).toBe('all runs since 1970-01-01 00:00 UTC of schedule "nightly"');
  });
});

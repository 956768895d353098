/**
 * The store conformance suite, continued (store.test.ts has the rest): a run's time, runs whose
 * process died, and schedules, on both dialects.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { finished, task } from '../../e2e/support/storeTestRows.js';
import type { Store } from './store.js';
import { openStore } from './store.js';
import { DIALECTS } from '../../e2e/support/storeHarness.js';
import { DEAD_PID, freshStoreEachTest } from '../../e2e/support/storeSuite.js';

describe.each(DIALECTS)('Store on %s: runs and schedules', (dialect) => {
  const fresh = freshStoreEachTest(dialect);
  if (!fresh) return;
  const begin = fresh.begin.bind(fresh);
  let store: Store;
  let location: string;
  beforeEach(() => {
    ({ store, location } = fresh);
  });

  describe("a run's time", () => {
    const time = { replayed: 600, checks: 250, waits: 100, agent: 0, other: 50 };

    it('is kept as committed, as JSON text; a run committed without one, still running or interrupted has none', async () => {
      const timed = await begin();
      await store.commitRun({ task: task(), run: finished(timed, { time }) });
      const untimed = await begin();
      await store.commitRun({ run: finished(untimed) });
      const running = await begin();
      const killed = await begin(DEAD_PID);
      await store.markInterruptedRuns();
      const times = Object.fromEntries((await store.findRuns({})).map((run) => [run.id, run.time]));
      expect(times).toEqual({ [timed]: time, [untimed]: null, [running]: null, [killed]: null });
      expect((await store.listRuns(10)).find((run) => run.id === timed)?.time).toEqual(time);
      // The same text on both dialects, as every JSON column, and SQL NULL (not the text 'null') for none.
      expect(await fresh.harness.raw(store, 'SELECT "time" FROM runs WHERE id IN (?, ?) ORDER BY started_at', [timed, untimed])).toEqual([{ time: JSON.stringify(time) }, { time: null }]);
    });

    it('reads as none where its text is damaged, instead of failing the read of the runs', async () => {
      const damaged = await begin();
      await store.commitRun({ run: finished(damaged, { time }) });
      await fresh.harness.raw(store, 'UPDATE runs SET "time" = ? WHERE id = ?', ['{"replayed": 6', damaged]);
      expect((await store.findRuns({ ids: [damaged] }))[0]).toMatchObject({ id: damaged, status: 'agent', time: null });
      expect((await store.listRuns(1))[0]?.time).toBeNull();
    });
  });

  describe('interrupted runs', () => {
    it('marks running runs of dead processes, and leaves live and finished ones', async () => {
      const dead = await begin(DEAD_PID);
      const live = await begin(process.pid);
      const done = await begin(DEAD_PID);
      await store.commitRun({ task: task(), run: finished(done) });

      expect(await store.markInterruptedRuns()).toBe(1);
      const byId = new Map((await store.listRuns(10)).map((r) => [r.id, r]));
      expect(byId.get(dead)).toMatchObject({ status: 'interrupted', error: expect.stringContaining(String(DEAD_PID)) });
      expect(byId.get(dead)?.endedAt).toBeGreaterThan(0);
      expect(byId.get(live)?.status).toBe('running');
      expect(byId.get(done)?.status).toBe('agent');
      expect(await store.markInterruptedRuns()).toBe(0);
    });

    it('runs at open', async () => {
      await store.beginRun({ id: 'killed', taskId: null, task: 't', mode: 'auto', startedAt: 1, pid: DEAD_PID });
      const again = await openStore(location);
      try {
        expect((await again.listRuns(1))[0]).toMatchObject({ id: 'killed', status: 'interrupted' });
      } finally {
        await again.close();
      }
    });

    it('leaves the runs of another machine to that machine', async () => {
      await store.beginRun({ id: 'elsewhere', taskId: null, task: 't', mode: 'auto', startedAt: 1, pid: DEAD_PID, host: 'another-host.invalid' });
      expect(await store.markInterruptedRuns()).toBe(0);
      expect((await store.listRuns(1))[0]).toMatchObject({ id: 'elsewhere', status: 'running', host: 'another-host.invalid' });
    });

    it('closes out the running runs of a queue job that is being run again', async () => {
      const abandoned = await begin(process.pid, store, 'job-7');
      const otherJob = await begin(process.pid, store, 'job-8');
      expect(await store.markRunsOfJobInterrupted('job-7', 'the worker stopped; job-7 is being retried')).toBe(1);
      const byId = new Map((await store.listRuns(10)).map((r) => [r.id, r]));
      expect(byId.get(abandoned)).toMatchObject({ status: 'interrupted', jobId: 'job-7', error: 'the worker stopped; job-7 is being retried' });
      expect(byId.get(otherJob)?.status).toBe('running');
    });
  });

  describe('schedules', () => {
    it('adds, lists, pauses and removes schedules, and takes each slot once', async () => {
      const now = Date.now();
      await store.schedules.add({ id: 's1', name: 'nightly', cron: '0 2 * * *', timezone: 'UTC', job: { task: 't' }, onFailure: null, enabled: true, createdAt: now, updatedAt: now });
      expect((await store.schedules.list()).map((row) => row.name)).toEqual(['nightly']);
      expect(await store.schedules.byName('nightly')).toMatchObject({ id: 's1', enabled: true, job: { task: 't' } });
      const slot = { scheduleId: 's1', slotAt: 5000, pid: process.pid, startedAt: now, trigger: 'cron' as const };
      expect(await store.schedules.beginSlot({ id: 'slot-a', ...slot })).toBe(true);
      expect(await store.schedules.beginSlot({ id: 'slot-b', ...slot })).toBe(false);
      expect(await store.schedules.isRunning('s1')).toBe(true);
      await store.schedules.finishSlot('slot-a', { status: 'succeeded', summary: { rows: 1 } });
      await store.schedules.passSlot({ id: 'slot-c', scheduleId: 's1', slotAt: 6000, status: 'missed', reason: 'no daemon' });
      expect(await store.schedules.lastSlotAt('s1')).toBe(6000);
      expect((await store.schedules.slots('s1', 10)).map((row) => [row.id, row.status])).toEqual([
        ['slot-c', 'missed'],
        ['slot-a', 'succeeded'],
      ]);
      expect(await store.schedules.setEnabled('nightly', false)).toBe(true);
      expect(await store.schedules.byName('nightly')).toMatchObject({ enabled: false });
      expect(await store.schedules.remove('nightly')).toBe(true);
      expect(await store.schedules.remove('nightly')).toBe(false);
      expect(await store.schedules.slots('s1', 10)).toEqual([]);
    });

    it('marks the running slots of dead processes on this machine interrupted', async () => {
      const now = Date.now();
      await store.schedules.add({ id: 's2', name: 'hourly', cron: '0 * * * *', timezone: 'UTC', job: {}, onFailure: null, enabled: true, createdAt: now, updatedAt: now });
      await store.schedules.beginSlot({ id: 'dead', scheduleId: 's2', slotAt: 1, pid: DEAD_PID, startedAt: now, trigger: 'cron' });
      await store.schedules.beginSlot({ id: 'remote', scheduleId: 's2', slotAt: 2, pid: DEAD_PID, host: 'another-host.invalid', startedAt: now, trigger: 'cron' });
      expect(await store.schedules.markInterruptedSlots()).toBe(1);
      expect(new Map((await store.schedules.slots('s2', 10)).map((row) => [row.id, row.status]))).toEqual(new Map([['remote', 'running'], ['dead', 'interrupted']]));
    });
  });
});

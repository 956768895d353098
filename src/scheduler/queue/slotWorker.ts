import { randomUUID } from 'node:crypto';
import { firstLineOf, messageOf } from '../../errors/messageOf.js';
import type { Rote } from '../../rote.js';
import type { ScheduleRow } from '../../store/scheduleStore.js';
import type { AgentCatalog } from '../agentCatalog.js';
import type { BrowserSupply } from '../browserSupply.js';
import { lastSlotBefore } from '../cronSlots.js';
import { readSchedule } from '../scheduleSpec.js';
import { runSlot } from '../slotRunner.js';
import type { JobQueue } from './jobQueue.js';
import { runJobOnQueue } from './runJobOnQueue.js';

/** How often a worker reads the store's schedules to follow adds, pauses and removals. */
const SYNC_MS = 15_000;
const SLOT_POLL_S = 5;

/** The queue a schedule's slots are sent to: pg-boss keeps one cron schedule per queue name. */
const SLOT_QUEUE_PREFIX = 'rote-slot.';

export function slotQueueOf(scheduleName: string): string {
  return `${SLOT_QUEUE_PREFIX}${scheduleName}`;
}

export type SlotWorkerDeps = { rote: Rote; browsers: BrowserSupply; env: NodeJS.ProcessEnv; agents: AgentCatalog; log: (line: string) => void; stop: AbortSignal; queue: JobQueue; url: string };

/**
 * A worker's side of the store's schedules on PostgreSQL. pg-boss's cron, running in every worker,
 * sends one job per slot with the schedule's singleton key, once across all machines. The worker
 * that takes it records the slot (a slot recorded already is not run again: the store's unique
 * slot key), queues one job per row, waits for them and records the slot's end, as the daemon does.
 * Every worker keeps pg-boss's schedules in step with the store's (added, paused, removed).
 */
export class SlotWorker {
  private readonly working = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: SlotWorkerDeps) {}

  async start(): Promise<void> {
    await this.sync();
    this.timer = setInterval(() => void this.sync(), SYNC_MS);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private async sync(): Promise<void> {
    const { rote, queue, log } = this.deps;
    let rows: ScheduleRow[];
    try {
      rows = await rote.store.schedules.list();
    } catch (error) {
      log(`could not read the schedules: ${firstLineOf(messageOf(error))}`);
      return;
    }
    const wanted = new Map(rows.filter((row) => row.enabled && readSchedule(row).ok).map((row) => [slotQueueOf(row.name), row]));
    // One schedule's trouble (a cron pg-boss's parser reads otherwise) never holds up the others.
    for (const [name, row] of wanted) {
      const signature = `${row.cron} ${row.timezone} ${row.updatedAt}`;
      if (this.working.get(name) === signature) continue;
      try {
        await queue.schedule(name, row.cron, row.timezone, { scheduleId: row.id });
        if (!this.working.has(name)) await queue.work<{ scheduleId: string }>(name, 1, (job) => this.runSlotJob(job.data.scheduleId, job.createdOn), SLOT_POLL_S);
        this.working.set(name, signature);
      } catch (error) {
        log(`${row.name}: could not schedule its slots: ${firstLineOf(messageOf(error))}`);
      }
    }
    try {
      // Paused or removed, here or while no worker ran: pg-boss stops sending its slots, and this worker stops taking them.
      const stale = new Set([...this.working.keys(), ...(await queue.scheduledQueues(SLOT_QUEUE_PREFIX))].filter((name) => !wanted.has(name)));
      for (const name of stale) {
        await queue.unschedule(name);
        if (this.working.has(name)) await queue.stopWorking(name);
        this.working.delete(name);
      }
    } catch (error) {
      log(`could not stop a removed schedule: ${firstLineOf(messageOf(error))}`);
    }
  }

  private async runSlotJob(scheduleId: string, sentAt: Date): Promise<object> {
    const { rote, log, stop, queue } = this.deps;
    const row: ScheduleRow | undefined = (await rote.store.schedules.list()).find((candidate) => candidate.id === scheduleId);
    const read = row ? readSchedule(row) : undefined;
    if (!row || !read || !read.ok || !row.enabled) return { skipped: 'the schedule was removed or paused' };
    // The slot the cron fired for: the latest at or before the moment pg-boss sent it. pg-boss sends
    // the minute just past when a schedule is new; a slot from before the schedule was added or
    // resumed is not owed (as with the daemon), so it is left unrecorded.
    const slotAt = lastSlotBefore(read.value.cron, read.value.timezone, sentAt.getTime() + 1) ?? sentAt.getTime();
    if (slotAt < row.updatedAt) return { skipped: `the slot ${new Date(slotAt).toISOString()} is from before the schedule was added or resumed` };
    // A slot waits while the one before it runs (the schedule's queue is a singleton): when it gets
    // its turn after a later slot fell due, it is recorded skipped, as the daemon does.
    const latest = lastSlotBefore(read.value.cron, read.value.timezone, Date.now() + 1);
    if (latest !== undefined && latest > slotAt) {
      await rote.store.schedules.passSlot({ id: randomUUID(), scheduleId: row.id, slotAt, status: 'skipped', reason: 'the slot before it was still running' });
      return { skipped: 'the slot before it was still running' };
    }
    const ended = await runSlot(
      { ...this.deps, runRows: (job, signal) => runJobOnQueue(job, queue, rote.store, signal ? { stop: signal } : {}) , stop },
      read.value,
      row,
      slotAt,
    );
    if (!ended) log(`${row.name}: slot ${new Date(slotAt).toISOString()} was taken by another worker`);
    return ended ? { status: ended.status, runs: ended.summary?.runIds.length ?? 0 } : { taken: true };
  }
}

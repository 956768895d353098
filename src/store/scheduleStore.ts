import { and, asc, desc, eq, max } from 'drizzle-orm';
import type { RoteDatabase } from './open.js';
import { guardStore } from './guard.js';
import { isProcessAlive } from './processAlive.js';
import { scheduleSlots, schedules, type SlotStatus, type slotTriggers } from './schema.js';

export type SlotTrigger = (typeof slotTriggers)[number];

export type ScheduleRow = typeof schedules.$inferSelect;
export type NewScheduleRow = typeof schedules.$inferInsert;
export type SlotRow = typeof scheduleSlots.$inferSelect;

/**
 * Schedules and their slots, in the same database as the cache and the run log. Slots are the
 * record of every cron slot: run, skipped or missed, so nothing a schedule was due to do goes
 * unaccounted for.
 */
export class ScheduleStore {
  constructor(
    private readonly db: RoteDatabase,
    private readonly path: string,
  ) {}

  add(row: NewScheduleRow): void {
    this.guard(`add schedule "${row.name}"`, () => this.db.insert(schedules).values(row).run());
  }

  byName(name: string): ScheduleRow | undefined {
    return this.guard(`read schedule "${name}"`, () => this.db.select().from(schedules).where(eq(schedules.name, name)).get());
  }

  list(): ScheduleRow[] {
    return this.guard('list schedules', () => this.db.select().from(schedules).orderBy(asc(schedules.name)).all());
  }

  /** Removes a schedule and the record of its slots; false when there is none of that name. */
  remove(name: string): boolean {
    return this.guard(`remove schedule "${name}"`, () => this.db.delete(schedules).where(eq(schedules.name, name)).run().changes > 0);
  }

  setEnabled(name: string, enabled: boolean): boolean {
    return this.guard(`${enabled ? 'resume' : 'pause'} schedule "${name}"`, () => this.db.update(schedules).set({ enabled, updatedAt: Date.now() }).where(eq(schedules.name, name)).run().changes > 0);
  }

  /** The latest cron slot recorded for a schedule (run, skipped or missed), epoch ms; run-now slots aside. */
  lastSlotAt(scheduleId: string): number | undefined {
    return this.guard('read the last slot', () => this.db.select({ at: max(scheduleSlots.slotAt) }).from(scheduleSlots).where(and(eq(scheduleSlots.scheduleId, scheduleId), eq(scheduleSlots.trigger, 'cron'))).get()?.at ?? undefined);
  }

  /**
   * Records a slot about to run, before its job starts. False when the slot is recorded already
   * (another daemon or an earlier pass took it): then it must not run again.
   */
  beginSlot(input: { id: string; scheduleId: string; slotAt: number; pid: number; startedAt: number; trigger: SlotTrigger }): boolean {
    return this.guard('begin a slot', () => this.db.insert(scheduleSlots).values({ ...input, status: 'running' }).onConflictDoNothing().run().changes > 0);
  }

  /** Records a slot that did not run (skipped or missed), with why. */
  passSlot(input: { id: string; scheduleId: string; slotAt: number; status: Extract<SlotStatus, 'skipped' | 'missed'>; reason: string }): void {
    this.guard('record a slot', () => this.db.insert(scheduleSlots).values({ ...input, endedAt: Date.now() }).onConflictDoNothing().run());
  }

  finishSlot(id: string, outcome: { status: Extract<SlotStatus, 'succeeded' | 'failed' | 'interrupted'>; reason?: string; summary: unknown }): void {
    this.guard('finish a slot', () =>
      this.db
        .update(scheduleSlots)
        .set({ status: outcome.status, reason: outcome.reason ?? null, summary: outcome.summary, endedAt: Date.now() })
        .where(and(eq(scheduleSlots.id, id), eq(scheduleSlots.status, 'running')))
        .run(),
    );
  }

  /** Whether a slot of the schedule is running now (in any process): run-now does not start a second. */
  isRunning(scheduleId: string): boolean {
    return this.guard('read running slots', () => this.db.select({ id: scheduleSlots.id }).from(scheduleSlots).where(and(eq(scheduleSlots.scheduleId, scheduleId), eq(scheduleSlots.status, 'running'))).get() !== undefined);
  }

  /** A schedule's latest slots, newest first. */
  slots(scheduleId: string, limit: number): SlotRow[] {
    return this.guard('list slots', () => this.db.select().from(scheduleSlots).where(eq(scheduleSlots.scheduleId, scheduleId)).orderBy(desc(scheduleSlots.slotAt)).limit(limit).all());
  }

  /** Slots still 'running' whose daemon is gone become 'interrupted' (as runs of dead processes do). */
  markInterruptedSlots(): number {
    return this.guard('mark interrupted slots', () => {
      const running = this.db.select().from(scheduleSlots).where(eq(scheduleSlots.status, 'running')).all();
      let marked = 0;
      for (const slot of running) {
        if (slot.pid !== null && isProcessAlive(slot.pid)) continue;
        marked += this.db
          .update(scheduleSlots)
          .set({ status: 'interrupted', reason: `the daemon (process ${slot.pid ?? '?'}) exited before the slot finished`, endedAt: Date.now() })
          .where(and(eq(scheduleSlots.id, slot.id), eq(scheduleSlots.status, 'running')))
          .run().changes;
      }
      return marked;
    });
  }

  private guard<T>(operation: string, fn: () => T): T {
    return guardStore(this.path, operation, fn);
  }
}

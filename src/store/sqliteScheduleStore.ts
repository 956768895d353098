import { and, asc, desc, eq, max } from 'drizzle-orm';
import type { RoteDatabase } from './open.js';
import { guardStore } from './guard.js';
import { deadProcessReason, leftByDeadProcess, thisHost } from './storeRules.js';
import { scheduleSlots, schedules, type SlotStatus } from './schema.js';
import type { NewScheduleRow, ScheduleRow, ScheduleStore, SlotRow, SlotTrigger } from './scheduleStore.js';

/** Schedules and their slots in the SQLite store (the contract is in scheduleStore.ts). */
export class SqliteScheduleStore implements ScheduleStore {
  constructor(
    private readonly db: RoteDatabase,
    private readonly path: string,
  ) {}

  async add(row: NewScheduleRow): Promise<void> {
    this.guard(`add schedule "${row.name}"`, () => this.db.insert(schedules).values(row).run());
  }

  async byName(name: string): Promise<ScheduleRow | undefined> {
    return this.guard(`read schedule "${name}"`, () => this.db.select().from(schedules).where(eq(schedules.name, name)).get());
  }

  async list(): Promise<ScheduleRow[]> {
    return this.guard('list schedules', () => this.db.select().from(schedules).orderBy(asc(schedules.name)).all());
  }

  /** Removes a schedule and the record of its slots; false when there is none of that name. */
  async remove(name: string): Promise<boolean> {
    return this.guard(`remove schedule "${name}"`, () => this.db.delete(schedules).where(eq(schedules.name, name)).run().changes > 0);
  }

  async setEnabled(name: string, enabled: boolean): Promise<boolean> {
    return this.guard(`${enabled ? 'resume' : 'pause'} schedule "${name}"`, () => this.db.update(schedules).set({ enabled, updatedAt: Date.now() }).where(eq(schedules.name, name)).run().changes > 0);
  }

  /** The latest cron slot recorded for a schedule (run, skipped or missed), epoch ms; run-now slots aside. */
  async lastSlotAt(scheduleId: string): Promise<number | undefined> {
    return this.guard('read the last slot', () => this.db.select({ at: max(scheduleSlots.slotAt) }).from(scheduleSlots).where(and(eq(scheduleSlots.scheduleId, scheduleId), eq(scheduleSlots.trigger, 'cron'))).get()?.at ?? undefined);
  }

  /**
   * Records a slot about to run, before its job starts. False when the slot is recorded already
   * (another daemon or an earlier pass took it): then it must not run again.
   */
  async beginSlot(input: { id: string; scheduleId: string; slotAt: number; pid: number; host?: string; startedAt: number; trigger: SlotTrigger }): Promise<boolean> {
    return this.guard('begin a slot', () => this.db.insert(scheduleSlots).values({ host: thisHost(), ...input, status: 'running' }).onConflictDoNothing().run().changes > 0);
  }

  /** Records a slot that did not run (skipped or missed), with why. */
  async passSlot(input: { id: string; scheduleId: string; slotAt: number; status: Extract<SlotStatus, 'skipped' | 'missed'>; reason: string }): Promise<void> {
    this.guard('record a slot', () => this.db.insert(scheduleSlots).values({ ...input, endedAt: Date.now() }).onConflictDoNothing().run());
  }

  async finishSlot(id: string, outcome: { status: Extract<SlotStatus, 'succeeded' | 'failed' | 'interrupted'>; reason?: string; summary: unknown }): Promise<void> {
    this.guard('finish a slot', () =>
      this.db
        .update(scheduleSlots)
        .set({ status: outcome.status, reason: outcome.reason ?? null, summary: outcome.summary, endedAt: Date.now() })
        .where(and(eq(scheduleSlots.id, id), eq(scheduleSlots.status, 'running')))
        .run(),
    );
  }

  /** Whether a slot of the schedule is running now (in any process): run-now does not start a second. */
  async isRunning(scheduleId: string): Promise<boolean> {
    return this.guard('read running slots', () => this.db.select({ id: scheduleSlots.id }).from(scheduleSlots).where(and(eq(scheduleSlots.scheduleId, scheduleId), eq(scheduleSlots.status, 'running'))).get() !== undefined);
  }

  /** A schedule's latest slots, newest first. */
  async slots(scheduleId: string, limit: number): Promise<SlotRow[]> {
    return this.guard('list slots', () => this.db.select().from(scheduleSlots).where(eq(scheduleSlots.scheduleId, scheduleId)).orderBy(desc(scheduleSlots.slotAt)).limit(limit).all());
  }

  /** Slots still 'running' whose daemon is gone become 'interrupted' (as runs of dead processes do). */
  async markInterruptedSlots(): Promise<number> {
    return this.markInterruptedSlotsNow();
  }

  markInterruptedSlotsNow(): number {
    return this.guard('mark interrupted slots', () => {
      const running = this.db.select().from(scheduleSlots).where(eq(scheduleSlots.status, 'running')).all();
      let marked = 0;
      for (const slot of leftByDeadProcess(running, 'this-machine')) {
        marked += this.db
          .update(scheduleSlots)
          .set({ status: 'interrupted', reason: deadProcessReason(slot, 'slot'), endedAt: Date.now() })
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

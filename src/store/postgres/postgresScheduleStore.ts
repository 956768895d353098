import { and, asc, desc, eq, max } from 'drizzle-orm';
import { guardStoreAsync } from '../guard.js';
import { deadProcessReason, leftByDeadProcess, thisHost } from '../storeRules.js';
import type { NewScheduleRow, ScheduleRow, ScheduleStore, SlotRow, SlotTrigger } from '../scheduleStore.js';
import type { SlotStatus } from '../schema.js';
import type { PostgresDatabase } from './openPostgres.js';
import { scheduleSlots, schedules } from './schema.js';

/** Schedules and their slots on PostgreSQL (the contract is in ../scheduleStore.ts). */
export class PostgresScheduleStore implements ScheduleStore {
  constructor(
    private readonly db: PostgresDatabase,
    private readonly location: string,
  ) {}

  add(row: NewScheduleRow): Promise<void> {
    return this.guard(`add schedule "${row.name}"`, async () => {
      await this.db.insert(schedules).values(row);
    });
  }

  byName(name: string): Promise<ScheduleRow | undefined> {
    return this.guard(`read schedule "${name}"`, async () => (await this.db.select().from(schedules).where(eq(schedules.name, name)))[0]);
  }

  list(): Promise<ScheduleRow[]> {
    return this.guard('list schedules', () => this.db.select().from(schedules).orderBy(asc(schedules.name)));
  }

  remove(name: string): Promise<boolean> {
    return this.guard(`remove schedule "${name}"`, async () => ((await this.db.delete(schedules).where(eq(schedules.name, name))).rowCount ?? 0) > 0);
  }

  setEnabled(name: string, enabled: boolean): Promise<boolean> {
    return this.guard(`${enabled ? 'resume' : 'pause'} schedule "${name}"`, async () => ((await this.db.update(schedules).set({ enabled, updatedAt: Date.now() }).where(eq(schedules.name, name))).rowCount ?? 0) > 0);
  }

  lastSlotAt(scheduleId: string): Promise<number | undefined> {
    return this.guard('read the last slot', async () => {
      const [row] = await this.db.select({ at: max(scheduleSlots.slotAt) }).from(scheduleSlots).where(and(eq(scheduleSlots.scheduleId, scheduleId), eq(scheduleSlots.trigger, 'cron')));
      return row?.at === null || row?.at === undefined ? undefined : Number(row.at);
    });
  }

  beginSlot(input: { id: string; scheduleId: string; slotAt: number; pid: number; host?: string; startedAt: number; trigger: SlotTrigger }): Promise<boolean> {
    return this.guard('begin a slot', async () => ((await this.db.insert(scheduleSlots).values({ host: thisHost(), ...input, status: 'running' }).onConflictDoNothing()).rowCount ?? 0) > 0);
  }

  passSlot(input: { id: string; scheduleId: string; slotAt: number; status: Extract<SlotStatus, 'skipped' | 'missed'>; reason: string }): Promise<void> {
    return this.guard('record a slot', async () => {
      await this.db.insert(scheduleSlots).values({ ...input, endedAt: Date.now() }).onConflictDoNothing();
    });
  }

  finishSlot(id: string, outcome: { status: Extract<SlotStatus, 'succeeded' | 'failed' | 'interrupted'>; reason?: string; summary: unknown }): Promise<void> {
    return this.guard('finish a slot', async () => {
      await this.db
        .update(scheduleSlots)
        .set({ status: outcome.status, reason: outcome.reason ?? null, summary: outcome.summary, endedAt: Date.now() })
        .where(and(eq(scheduleSlots.id, id), eq(scheduleSlots.status, 'running')));
    });
  }

  isRunning(scheduleId: string): Promise<boolean> {
    return this.guard('read running slots', async () => (await this.db.select({ id: scheduleSlots.id }).from(scheduleSlots).where(and(eq(scheduleSlots.scheduleId, scheduleId), eq(scheduleSlots.status, 'running'))).limit(1)).length > 0);
  }

  slots(scheduleId: string, limit: number): Promise<SlotRow[]> {
    return this.guard('list slots', () => this.db.select().from(scheduleSlots).where(eq(scheduleSlots.scheduleId, scheduleId)).orderBy(desc(scheduleSlots.slotAt)).limit(limit));
  }

  markInterruptedSlots(): Promise<number> {
    return this.guard('mark interrupted slots', async () => {
      const running = await this.db.select().from(scheduleSlots).where(eq(scheduleSlots.status, 'running'));
      let marked = 0;
      for (const slot of leftByDeadProcess(running, 'unknown')) {
        const closed = await this.db
          .update(scheduleSlots)
          .set({ status: 'interrupted', reason: deadProcessReason(slot, 'slot'), endedAt: Date.now() })
          .where(and(eq(scheduleSlots.id, slot.id), eq(scheduleSlots.status, 'running')));
        marked += closed.rowCount ?? 0;
      }
      return marked;
    });
  }

  private guard<T>(operation: string, fn: () => Promise<T>): Promise<T> {
    return guardStoreAsync(this.location, operation, fn);
  }
}

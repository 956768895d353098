import type { SlotStatus, slotTriggers } from './columnValues.js';

export type SlotTrigger = (typeof slotTriggers)[number];

/** Written out, not inferred from the schema (see rows.ts); rowTypes.check.ts keeps them equal. */
export type ScheduleRow = {
  id: string;
  name: string;
  cron: string;
  timezone: string;
  job: unknown;
  onFailure: unknown;
  enabled: boolean;
  createdAt: number;
  updatedAt: number;
};
export type NewScheduleRow = Omit<ScheduleRow, 'onFailure' | 'enabled'> & { onFailure?: unknown; enabled?: boolean | undefined };
export type SlotRow = {
  id: string;
  scheduleId: string;
  slotAt: number;
  trigger: SlotTrigger;
  status: SlotStatus;
  startedAt: number | null;
  endedAt: number | null;
  pid: number | null;
  host: string | null;
  reason: string | null;
  summary: unknown;
};

/**
 * Schedules and their slots, in the same database as the cache and the run log. Slots are the
 * record of every cron slot: run, skipped or missed, so nothing a schedule was due to do goes
 * unaccounted for. One implementation per dialect (sqliteScheduleStore.ts, postgres/).
 */
export interface ScheduleStore {
  add(row: NewScheduleRow): Promise<void>;
  byName(name: string): Promise<ScheduleRow | undefined>;
  list(): Promise<ScheduleRow[]>;
  /** Removes a schedule and the record of its slots; false when there is none of that name. */
  remove(name: string): Promise<boolean>;
  setEnabled(name: string, enabled: boolean): Promise<boolean>;
  /** The latest cron slot recorded for a schedule (run, skipped or missed), epoch ms; run-now slots aside. */
  lastSlotAt(scheduleId: string): Promise<number | undefined>;
  /**
   * Records a slot about to run, before its job starts. False when the slot is recorded already
   * (another daemon or worker took it): then it must not run again.
   */
  beginSlot(input: { id: string; scheduleId: string; slotAt: number; pid: number; host?: string; startedAt: number; trigger: SlotTrigger }): Promise<boolean>;
  /** Records a slot that did not run (skipped or missed), with why. */
  passSlot(input: { id: string; scheduleId: string; slotAt: number; status: Extract<SlotStatus, 'skipped' | 'missed'>; reason: string }): Promise<void>;
  finishSlot(id: string, outcome: { status: Extract<SlotStatus, 'succeeded' | 'failed' | 'interrupted'>; reason?: string; summary: unknown }): Promise<void>;
  /** Whether a slot of the schedule is running now (in any process): run-now does not start a second. */
  isRunning(scheduleId: string): Promise<boolean>;
  /** A schedule's latest slots, newest first. */
  slots(scheduleId: string, limit: number): Promise<SlotRow[]>;
  /** Slots still 'running' whose daemon is gone become 'interrupted' (as runs of dead processes do). */
  markInterruptedSlots(): Promise<number>;
}

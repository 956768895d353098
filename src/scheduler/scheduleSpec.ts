import { z } from 'zod';
import { accept, refuse, type Outcome } from '../errors/refusal.js';
import type { ScheduleRow } from '../store/scheduleStore.js';
import { jobSpecSchema } from './jobSpec.js';
import { onFailureSchema } from './notify.js';

/** What catches up the slots a daemon missed while it was down: none, the latest one once (default), or all in turn. */
export const CATCH_UP_POLICIES = ['none', 'latest', 'all'] as const;
export type CatchUpPolicy = (typeof CATCH_UP_POLICIES)[number];

export const SCHEDULE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** A schedule as stored: validated again whenever it is read, so a row edited by hand is refused with its name, never run. */
export const scheduleSchema = z
  .object({
    name: z.string().regex(SCHEDULE_NAME, 'must be 1 to 64 letters, digits, ., _ or -, starting with a letter or digit'),
    cron: z.string().trim().min(1),
    timezone: z.string().trim().min(1),
    job: jobSpecSchema,
    onFailure: onFailureSchema.nullable(),
    enabled: z.boolean(),
  })
  .strict();

export type Schedule = z.infer<typeof scheduleSchema>;

/** A stored row read as a schedule, or refused with what is wrong with it (a row edited by hand, a newer rote's). */
export function readSchedule(row: ScheduleRow): Outcome<Schedule> {
  const parsed = scheduleSchema.safeParse({ name: row.name, cron: row.cron, timezone: row.timezone, job: row.job, onFailure: row.onFailure ?? null, enabled: row.enabled });
  if (parsed.success) return accept(parsed.data);
  const issue = parsed.error.issues[0];
  return refuse(`the stored schedule "${row.name}" is not valid: ${issue?.path.join('.') || '(row)'}: ${issue?.message ?? 'unknown problem'}`);
}

import { Cron } from 'croner';
import { messageOf } from '../errors/messageOf.js';
import { RoteError } from '../errors/roteError.js';

/**
 * A schedule's cron expression read in its time zone (croner: five fields, or six with seconds
 * first). Checked when a schedule is added; a bad one is an error naming the field.
 */
export function checkCron(cron: string, timezone: string, where: string): void {
  if (!isTimeZone(timezone)) throw new RoteError('invalid-argument', `${where}: --tz ${JSON.stringify(timezone)} is not a time zone; expected an IANA name such as UTC, Europe/Berlin or America/New_York`);
  try {
    const next = new Cron(cron, { timezone, paused: true }).nextRun();
    if (!next) throw new Error('it never fires');
  } catch (error) {
    throw new RoteError('invalid-argument', `${where}: cron ${JSON.stringify(cron)} is not valid: ${messageOf(error)} (five fields: minute hour day month weekday, or six with seconds first)`, { cause: error });
  }
}

function isTimeZone(timezone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
    return true;
  } catch {
    return false;
  }
}

/** The slots after `after` up to and including `until` (epoch ms), oldest first, at most `limit`. */
export function slotsBetween(cron: string, timezone: string, after: number, until: number, limit = 1_000): number[] {
  const job = new Cron(cron, { timezone, paused: true });
  const slots: number[] = [];
  let previous = new Date(after);
  while (slots.length < limit) {
    const next = job.nextRun(previous);
    if (!next || next.getTime() > until) break;
    slots.push(next.getTime());
    previous = next;
  }
  return slots;
}

/** The next slot after `after`, epoch ms. */
export function nextSlot(cron: string, timezone: string, after: number): number | undefined {
  return new Cron(cron, { timezone, paused: true }).nextRun(new Date(after))?.getTime();
}

/** The latest slot strictly before `before`, epoch ms: found without walking the slots in between. */
export function lastSlotBefore(cron: string, timezone: string, before: number): number | undefined {
  return new Cron(cron, { timezone, paused: true }).previousRuns(1, new Date(before))[0]?.getTime();
}

/** How many slots fall after `after` up to `until`, counted up to `cap` (then `cap`, and `capped`). */
export function countSlots(cron: string, timezone: string, after: number, until: number, cap: number): { count: number; capped: boolean } {
  const count = slotsBetween(cron, timezone, after, until, cap + 1).length;
  return { count: Math.min(count, cap), capped: count > cap };
}

import { describe, expect, it } from 'vitest';
import { checkCron, nextSlot, slotsBetween } from './cronSlots.js';

describe('cron slots', () => {
  it('lists the slots after one moment up to another, in the schedule time zone', () => {
    const at = Date.parse('2026-11-24T10:00:00Z');
    expect(slotsBetween('*/2 * * * * *', 'UTC', at, at + 6_000)).toEqual([at + 2_000, at + 4_000, at + 6_000]);
    // 02:00 in Berlin is 01:00 UTC in winter.
    expect(nextSlot('0 2 * * *', 'Europe/Berlin', at)).toBe(Date.parse('2026-11-25T01:00:00Z'));
  });

  it('refuses a bad expression or time zone with its reason', () => {
    expect(() => checkCron('61 * * * *', 'UTC', 'w')).toThrow('w: cron "61 * * * *" is not valid: CronPattern: Invalid value for minute: 61');
    expect(() => checkCron('0 2 * * *', 'Mars/Olympus', 'w')).toThrow('w: --tz "Mars/Olympus" is not a time zone');
    expect(() => checkCron('0 2 30 2 *', 'UTC', 'w')).toThrow(/is not valid/);
    expect(() => checkCron('*/5 * * * * *', 'America/New_York', 'w')).not.toThrow();
  });
});

import { describe, expect, it } from 'vitest';
import { parseSince } from './reportFilter.js';

describe('parseSince', () => {
  const now = Date.UTC(2026, 10, 24, 12, 0);
  it('reads dates as UTC, date-times with or without a zone, and spans back from now', () => {
    expect(parseSince('2026-11-01', 'stats', now)).toBe(Date.UTC(2026, 10, 1));
    expect(parseSince('2026-11-01T08:30', 'stats', now)).toBe(Date.UTC(2026, 10, 1, 8, 30));
    expect(parseSince('2026-11-01T08:30+02:00', 'stats', now)).toBe(Date.UTC(2026, 10, 1, 6, 30));
    expect(parseSince('12h', 'stats', now)).toBe(now - 12 * 3_600_000);
    expect(parseSince('7d', 'stats', now)).toBe(now - 7 * 86_400_000);
  });

  it('refuses what is not a date, naming the option and the value', () => {
    expect(() => parseSince('yesterday', 'stats', now)).toThrow('rote stats: --since "yesterday" is not a date');
    expect(() => parseSince('2026-13-45', 'report', now)).toThrow('--since "2026-13-45" is not a date');
    expect(() => parseSince('2026-02-30', 'report', now)).toThrow('--since "2026-02-30" is not a date');
  });
});

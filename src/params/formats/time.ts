import type { Format } from '../format.js';
import { rebuild, tokenize, type Piece } from './tokens.js';

const TOKENS = ['HH', 'H', 'hh', 'h', 'mm', 'ss', 'A', 'a'] as const;
type TimeToken = (typeof TOKENS)[number];

export const TIME_PATTERNS = [
  'HH:mm', 'H:mm', 'HH:mm:ss', 'H:mm:ss', 'HHmm',
  'h:mm A', 'hh:mm A', 'h:mm a', 'hh:mm a', 'h:mmA', 'hh:mmA', 'h:mma', 'hh:mma',
  'h:mm:ss A', 'hh:mm:ss A', 'h:mm:ss a', 'hh:mm:ss a',
  'h A', 'h a', 'hA', 'ha',
];

/** Probe values that separate 12h/24h, padding, and patterns with or without minutes or seconds. */
export const TIME_PROBES = ['09:05', '20:45', '00:30', '12:15:30'];

export const TIME_RULE = 'a time pattern may use HH, H, hh, h, mm, ss, A, a and separators, and h or hh needs A or a';

export interface ClockTime {
  hour: number;
  minute: number;
  second: number;
}

/** Reads a bound time value: 24-hour 'HH:MM' or 'HH:MM:SS', else null. */
export function parseTime(value: string): ClockTime | null {
  const match = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(value);
  if (!match) return null;
  const [hour, minute, second] = [Number(match[1]), Number(match[2]), Number(match[3] ?? '0')];
  if (hour > 23 || minute > 59 || second > 59) return null;
  return { hour, minute, second };
}

/** Tokens of a valid pattern; a 12-hour hour without AM/PM would type 20:04 as "8:04", a wrong time. */
export function timePieces(pattern: string): Piece<TimeToken>[] | null {
  const pieces = tokenize(pattern, TOKENS);
  if (!pieces) return null;
  const tokens = pieces.flatMap((piece) => ('token' in piece ? [piece.token] : []));
  const twelveHour = tokens.includes('h') || tokens.includes('hh');
  const marker = tokens.includes('A') || tokens.includes('a');
  return twelveHour && !marker ? null : pieces;
}

export function renderTime(value: string, pattern: string): string | null {
  const time = parseTime(value);
  const pieces = timePieces(pattern);
  if (!time || !pieces) return null;
  // A pattern without minutes (or seconds) would type 20:30 as "8 PM": a wrong time, not a format.
  const shows = (token: TimeToken) => pieces.some((piece) => 'token' in piece && piece.token === token);
  if ((time.minute !== 0 && !shows('mm')) || (time.second !== 0 && !shows('ss'))) return null;
  return pieces.map((piece) => ('token' in piece ? renderToken(time, piece.token) : piece.literal)).join('');
}

function renderToken(time: ClockTime, token: TimeToken): string {
  const twelve = time.hour % 12 === 0 ? 12 : time.hour % 12;
  const marker = time.hour < 12 ? 'AM' : 'PM';
  switch (token) {
    case 'HH': return String(time.hour).padStart(2, '0');
    case 'H': return String(time.hour);
    case 'hh': return String(twelve).padStart(2, '0');
    case 'h': return String(twelve);
    case 'mm': return String(time.minute).padStart(2, '0');
    case 'ss': return String(time.second).padStart(2, '0');
    case 'A': return marker;
    case 'a': return marker.toLowerCase();
  }
}

export function unpadTime(pattern: string): string {
  const pieces = timePieces(pattern);
  return pieces ? rebuild(pieces, { HH: 'H', hh: 'h' }) : pattern;
}

/**
 * Chains tried for a time value. A pattern that drops minutes or seconds ('h A' types 20:30 as
 * "8 PM") is only inferred when what it drops is zero, so the recorded text still says the value.
 */
export function timeChains(value: string): Format[][] {
  const time = parseTime(value);
  if (!time) return [];
  return TIME_PATTERNS.filter((pattern) => {
    if (time.second !== 0 && !pattern.includes('ss')) return false;
    return time.minute === 0 && time.second === 0 ? true : pattern.includes('mm');
  }).map((pattern) => [{ kind: 'time', pattern }]);
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendOpenAIError } from './openaiError.js';
import type { UpstreamUnreachable } from './upstream.js';

/** The small pieces of HTTP every proxy endpoint reads and writes the same way. */

/** A request header as one string (repeated headers joined), or undefined. */
export function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** A reason as a header value: one line of printable ASCII. */
export function headerSafe(reason: string): string {
  return reason.replace(/[^\x20-\x7e]/g, '?').slice(0, 300);
}

/** A JSON object from text, or undefined when the text is not one. */
export function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const parsed = JSON.parse(text) as unknown;
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The 502 for an upstream that cannot be reached: its origin named, never a key. */
export function sendUnreachable(res: ServerResponse, error: UpstreamUnreachable, headers: Record<string, string>): void {
  sendOpenAIError(res, 502, { type: 'upstream_error', message: error.message, code: 'upstream_unreachable' }, headers);
}

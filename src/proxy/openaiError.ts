import type { ServerResponse } from 'node:http';

/**
 * An error as OpenAI answers it: `{"error": {message, type, param, code}}`, with
 * `x-should-retry: false` where retrying the same request cannot help (the openai client retries
 * 408, 409, 429 and 5xx twice unless told not to).
 */
export type OpenAIErrorType = 'invalid_request_error' | 'upstream_error' | 'server_error';

export function sendOpenAIError(res: ServerResponse, status: number, error: { message: string; type: OpenAIErrorType; param?: string | null; code?: string | null }, headers: Record<string, string> = {}): void {
  const body = JSON.stringify({ error: { message: error.message, type: error.type, param: error.param ?? null, code: error.code ?? null } });
  res.writeHead(status, { 'content-type': 'application/json', 'x-should-retry': 'false', ...headers });
  res.end(body);
}

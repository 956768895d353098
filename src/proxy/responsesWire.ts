import type { ServerResponse } from 'node:http';
import type { ComputerAction } from './computerActions.js';
import type { ComputerToolForm } from './responsesRequest.js';
import { responseEvents } from './responsesEvents.js';

/**
 * The Responses API objects the proxy writes itself: a whole response (for a served step, in the
 * shape the upstream's own have, usage zero), a computer call in either tool's form, and the
 * answer as the client asked for it (JSON, or the event stream of responsesEvents.ts).
 */
type Json = Record<string, unknown>;

const ZERO_USAGE = { input_tokens: 0, input_tokens_details: { cached_tokens: 0 }, output_tokens: 0, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 0 };

/** A completed response to this request with this output, as the API writes one. */
export function servedResponse(body: Json, fields: { id: string; model: string; output: Json[] }): Json {
  return {
    id: fields.id,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status: 'completed',
    background: false,
    error: null,
    incomplete_details: null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    model: fields.model,
    output: fields.output,
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    previous_response_id: body.previous_response_id ?? null,
    reasoning: body.reasoning ?? { effort: null, summary: null },
    store: body.store ?? true,
    temperature: body.temperature ?? 1,
    text: body.text ?? { format: { type: 'text' } },
    tool_choice: body.tool_choice ?? 'auto',
    tools: body.tools ?? [],
    top_p: body.top_p ?? 1,
    truncation: body.truncation ?? 'disabled',
    usage: ZERO_USAGE,
    user: null,
    metadata: body.metadata ?? {},
  };
}

/** One computer call with one action: `action` for the preview tool, a batch of one for the newer tool. */
export function computerCall(form: ComputerToolForm, fields: { id: string; callId: string; action: ComputerAction; checks: Json[] }): Json {
  return {
    type: 'computer_call',
    id: fields.id,
    call_id: fields.callId,
    ...(form === 'preview' ? { action: fields.action } : { actions: [fields.action] }),
    pending_safety_checks: fields.checks,
    status: 'completed',
  };
}

/** Writes the response as JSON, or as its events when the request asked for a stream. */
export function sendResponse(res: ServerResponse, body: Json, response: Json, headers: Record<string, string>): void {
  if (body.stream === true) {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', ...headers });
    for (const event of responseEvents(response)) res.write(event);
    res.end();
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(response));
}

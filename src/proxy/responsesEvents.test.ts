import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { responseEvents } from './responsesEvents.js';

/**
 * Whole responses written as the Responses event stream, read back by the real openai client's
 * stream helper: what it rebuilds must be the response, item for item, and every event must come
 * in order with the next sequence number.
 */
const base = { object: 'response', created_at: 1764201600, model: 'computer-use-preview-2025-03-11', status: 'completed', error: null, incomplete_details: null, instructions: null, metadata: {}, parallel_tool_calls: true, previous_response_id: null, temperature: 1, text: { format: { type: 'text' } }, tool_choice: 'auto', tools: [], top_p: 1, truncation: 'auto', usage: { input_tokens: 0, input_tokens_details: { cached_tokens: 0 }, output_tokens: 0, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 0 } };

const RESPONSES: Record<string, Record<string, unknown>> = {
  computer: {
    ...base,
    id: 'resp_rote_computer',
    output: [
      { type: 'reasoning', id: 'rs_rote_1', summary: [{ type: 'summary_text', text: 'Type the first name.' }] },
      { type: 'computer_call', id: 'cu_rote_1', call_id: 'call_rote_1', action: { type: 'click', button: 'left', x: 412, y: 230 }, pending_safety_checks: [], status: 'completed' },
    ],
  },
  batch: {
    ...base,
    id: 'resp_rote_batch',
    output: [{ type: 'computer_call', id: 'cu_rote_2', call_id: 'call_rote_2', actions: [{ type: 'click', button: 'left', x: 10, y: 20 }, { type: 'type', text: 'Ada' }], pending_safety_checks: [{ id: 'cu_sc_1', code: 'malicious_instructions', message: 'Check the page.' }], status: 'completed' }],
  },
  message: {
    ...base,
    id: 'resp_rote_message',
    output: [{ type: 'message', id: 'msg_rote_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'The form is submitted: "Ada Lovelace", Waco.', annotations: [] }] }],
  },
  function: {
    ...base,
    id: 'resp_rote_function',
    output: [{ type: 'function_call', id: 'fc_rote_1', call_id: 'call_rote_3', name: 'lookup', arguments: '{"city":"Waco"}', status: 'completed' }],
  },
};

function withoutParsed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutParsed);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => key !== 'parsed' && key !== 'parsed_arguments').map(([key, item]) => [key, withoutParsed(item)]));
}

let server: Server;
let client: OpenAI;
beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      const body = JSON.parse(raw) as { input: string; stream?: boolean };
      const response = RESPONSES[body.input]!;
      if (!body.stream) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify(response));
      }
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
      for (const event of responseEvents(response)) res.write(event);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  client = new OpenAI({ baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, apiKey: 'sk-test', maxRetries: 0 });
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('a response as the Responses event stream', () => {
  it.each(Object.keys(RESPONSES))('%s: the stream helper rebuilds the very response the JSON answer gives, from events in order', async (name) => {
    const stream = client.responses.stream({ model: 'computer-use-preview', input: name });
    const seen: { type: string; sequence_number: number }[] = [];
    for await (const event of stream) seen.push({ type: event.type, sequence_number: event.sequence_number });
    const streamed = await stream.finalResponse();
    const plain = await client.responses.create({ model: 'computer-use-preview', input: name });
    // The helper adds what it parses (`parsed`, `parsed_arguments`); everything else is the response as sent.
    expect(withoutParsed(streamed.output)).toEqual(RESPONSES[name]!.output);
    expect(plain.output).toEqual(RESPONSES[name]!.output);
    expect(streamed.id).toBe(plain.id);
    expect(seen.map((event) => event.sequence_number)).toEqual(seen.map((_, index) => index));
    expect(seen[0]!.type).toBe('response.created');
    expect(seen.at(-1)!.type).toBe('response.completed');
    // Each item added before it is done, at its own index.
    expect(seen.filter((event) => event.type === 'response.output_item.added')).toHaveLength((RESPONSES[name]!.output as unknown[]).length);
  });

  it('streams a message\'s text as a delta and a function call\'s arguments as one', () => {
    const types = (name: string) => responseEvents(RESPONSES[name]!).map((event) => /^event: (\S+)/.exec(event)![1]);
    expect(types('message')).toEqual(['response.created', 'response.in_progress', 'response.output_item.added', 'response.content_part.added', 'response.output_text.delta', 'response.output_text.done', 'response.content_part.done', 'response.output_item.done', 'response.completed']);
    expect(types('function')).toEqual(['response.created', 'response.in_progress', 'response.output_item.added', 'response.function_call_arguments.delta', 'response.function_call_arguments.done', 'response.output_item.done', 'response.completed']);
  });
});

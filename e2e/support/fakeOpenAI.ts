/**
 * A local HTTP server on 127.0.0.1 that answers like the OpenAI API, for driving the real
 * `openai` client in tests: POST /v1/responses (both computer tools) and POST
 * /v1/chat/completions. The shapes are those of the API's responses as the pinned SDK types
 * describe them (openai/resources/responses/responses.d.ts, chat/completions/completions.d.ts);
 * the content is scripted: a `brain` decides each answer, or replies queued by the test go first.
 *
 * Like the real service it keeps responses by id for `previous_response_id`, and it rejects what
 * the real one rejects: an unknown previous response (400 `previous_response_not_found`), an
 * echoed item id it never gave (404), a computer or function call left without its output, a
 * reasoning item without the item it led to, a tool call without its tool message. The whole
 * conversation sent again (no `previous_response_id`) continues the one whose items it echoes. It
 * is stricter in one place: a pending safety check must come back in `acknowledged_safety_checks`.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An action in the computer-use convention, as it goes on the wire; `{ type: 'tool', name, args }` is sent as a function call. */
export type WireAction = { type: string; [key: string]: unknown };
export type FakeSafetyCheck = { id: string; code: string; message: string };

export type FakeDecision =
  | { actions: WireAction[]; intent?: string; safetyChecks?: FakeSafetyCheck[]; usage?: FakeUsage }
  | { done: true; answer: string; usage?: FakeUsage };

export type FakeReply =
  | FakeDecision
  /** Responses: these output items, exactly. */
  | { output: unknown[]; usage?: FakeUsage }
  /** Chat completions: this assistant message, exactly. */
  | { message: Record<string, unknown>; usage?: FakeUsage }
  /**
   * An HTTP-level answer: an error status, after an optional delay; `rawBody` sent as it is (JSON
   * cut short); `cutAfter` bytes of the body, then the connection is dropped mid-answer.
   */
  | { http: number; headers?: Record<string, string>; body?: unknown; delayMs?: number; rawBody?: string; cutAfter?: number };

export type FakeUsage = { input: number; output: number };

export type FakeTurn = {
  api: 'responses' | 'chat';
  /** 'preview' (computer_use_preview), 'batch' (computer) or 'chat'. */
  form: 'preview' | 'batch' | 'chat';
  body: Record<string, unknown>;
  /** The text of the conversation's first user message. */
  prompt: string;
  /** Parameters read from the prompt's "- name: \"value\"" lines. */
  params: Record<string, string>;
  /** 0 for a conversation's first request. */
  turn: number;
  /** Scratch space kept for the conversation. */
  memory: Record<string, unknown>;
};

export type FakeBrain = (turn: FakeTurn) => FakeReply | Promise<FakeReply>;

export type RecordedRequest = { path: string; headers: IncomingHttpHeaders; body: Record<string, unknown>; at: number; status: number };

export type FakeOpenAI = {
  /** http://127.0.0.1:PORT/v1 */
  baseURL: string;
  /** Every request, in order, with the status it was answered with. */
  requests: RecordedRequest[];
  brain: FakeBrain;
  /** Replies served before the brain is asked, one per request. */
  queue(...replies: FakeReply[]): void;
  close(): Promise<void>;
};

type Conversation = { prompt: string; params: Record<string, string>; turns: number; memory: Record<string, unknown>; queued: { action: WireAction; intent?: string }[] };
type StoredResponse = { conversation: Conversation; calls: { callId: string; checks: FakeSafetyCheck[] }[]; functionCalls: string[] };

const DEFAULT_USAGE: FakeUsage = { input: 1200, output: 40 };

export async function startFakeOpenAI(options: { brain?: FakeBrain; apiKey?: string } = {}): Promise<FakeOpenAI> {
  const requests: RecordedRequest[] = [];
  const queued: FakeReply[] = [];
  const responses = new Map<string, StoredResponse>();
  const chats = new Map<string, Conversation>();
  /** Every output item this fake gave, by id, and the conversation it belongs to: what input may echo. */
  const produced = new Map<string, Conversation>();
  let counter = 0;
  const id = (prefix: string) => `${prefix}_${String(++counter).padStart(6, '0')}fake`;

  const fake: FakeOpenAI = {
    baseURL: '',
    requests,
    brain: options.brain ?? (() => ({ done: true, answer: 'Nothing to do.' })),
    queue: (...replies) => void queued.push(...replies),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    let body: Record<string, unknown> = {};
    try {
      body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    } catch {
      return send(res, record(req, body, 400), 400, apiError('We could not parse the JSON body of your request.', 'invalid_request_error'));
    }
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (options.apiKey !== undefined && req.headers.authorization !== `Bearer ${options.apiKey}`) {
      return send(res, record(req, body, 401), 401, apiError('Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key'));
    }
    if (req.method === 'POST' && path === '/v1/responses') return responsesEndpoint(req, res, body);
    if (req.method === 'POST' && path === '/v1/chat/completions') return chatEndpoint(req, res, body);
    return send(res, record(req, body, 404), 404, apiError(`Unknown request URL: ${req.method} ${path}.`, 'invalid_request_error', 'unknown_url'));
  }

  function record(req: IncomingMessage, body: Record<string, unknown>, status: number): RecordedRequest {
    const entry = { path: new URL(req.url ?? '/', 'http://127.0.0.1').pathname, headers: req.headers, body, at: Date.now(), status };
    requests.push(entry);
    return entry;
  }

  async function responsesEndpoint(req: IncomingMessage, res: ServerResponse, body: Record<string, unknown>): Promise<void> {
    const entry = record(req, body, 200);
    const reject = (message: string) => send(res, entry, 400, apiError(message, 'invalid_request_error'));
    const tools = Array.isArray(body.tools) ? (body.tools as Record<string, unknown>[]) : [];
    const tool = tools.find((candidate) => candidate.type === 'computer_use_preview' || candidate.type === 'computer');
    if (!tool) return reject('This fake only answers requests with a computer tool.');
    const form = tool.type === 'computer_use_preview' ? 'preview' : 'batch';
    if (form === 'preview') {
      if (typeof tool.display_width !== 'number' || typeof tool.display_height !== 'number' || tool.environment !== 'browser') return reject("Missing required parameter: 'tools[0].display_width'.");
      if (body.truncation !== 'auto') return reject('The computer-use-preview model requires truncation to be set to auto.');
    }
    const input = Array.isArray(body.input) ? (body.input as Record<string, unknown>[]) : [];
    // Like the real service: an echoed item must be one it gave, a call in the input must have its
    // output (and its checks acknowledged), and a reasoning item must come with the item it led to.
    const echoed = checkEchoedItems(input, produced);
    if (echoed) return send(res, entry, echoed.status, apiError(echoed.message, 'invalid_request_error', null, 'input'));
    let conversation: Conversation;
    if (typeof body.previous_response_id === 'string') {
      const previous = responses.get(body.previous_response_id);
      if (!previous) return send(res, entry, 400, apiError(`Previous response with id '${body.previous_response_id}' not found.`, 'invalid_request_error', 'previous_response_not_found', 'previous_response_id'));
      for (const call of previous.calls) {
        const output = input.find((item) => item.type === 'computer_call_output' && item.call_id === call.callId);
        if (!output) return reject(`No tool output found for computer call ${call.callId}.`);
        const screenshot = output.output as Record<string, unknown> | undefined;
        if (screenshot?.type !== 'computer_screenshot' || typeof screenshot.image_url !== 'string' || !screenshot.image_url.startsWith('data:image/png;base64,')) {
          return reject(`Invalid 'input[].output': expected a computer_screenshot with an image_url.`);
        }
        const acknowledged = Array.isArray(output.acknowledged_safety_checks) ? (output.acknowledged_safety_checks as { id?: unknown }[]) : [];
        const missing = call.checks.find((check) => !acknowledged.some((ack) => ack.id === check.id));
        if (missing) return reject(`Safety check ${missing.id} was not acknowledged.`);
      }
      for (const callId of previous.functionCalls) {
        const output = input.find((item) => item.type === 'function_call_output' && item.call_id === callId);
        if (!output) return reject(`No tool output found for function call ${callId}.`);
        if (typeof output.output !== 'string') return reject(`Invalid 'input[].output': expected a string.`);
      }
      conversation = previous.conversation;
    } else {
      // The whole conversation sent again: it continues the one whose items it echoes, if any.
      const known = input.map((item) => (typeof item.id === 'string' ? produced.get(item.id) : undefined)).find(Boolean);
      const prompt = firstUserText(input);
      conversation = known ?? { prompt, params: readParams(prompt), turns: 0, memory: {}, queued: [] };
    }
    const turn: FakeTurn = { api: 'responses', form, body, prompt: conversation.prompt, params: conversation.params, turn: conversation.turns++, memory: conversation.memory };
    let reply: FakeReply;
    const next = queued.length > 0 ? undefined : conversation.queued.shift();
    if (queued.length > 0) reply = queued.shift()!;
    else if (next) reply = { actions: [next.action], ...(next.intent ? { intent: next.intent } : {}) };
    else reply = await fake.brain(turn);
    if ('http' in reply) return sendHttp(res, entry, reply);

    let output: Record<string, unknown>[];
    if ('output' in reply) {
      output = reply.output as Record<string, unknown>[];
    } else if ('done' in reply) {
      output = [message(id('msg'), reply.answer)];
    } else if ('actions' in reply) {
      const checks = (reply.safetyChecks ?? []).map((check) => ({ ...check }));
      // Custom tools are function calls after the computer call (or alone).
      const computer = reply.actions.filter((action) => action.type !== 'tool');
      const functions = reply.actions.filter((action) => action.type === 'tool');
      const actions = form === 'preview' ? computer.slice(0, 1) : computer;
      if (form === 'preview') conversation.queued.unshift(...computer.slice(1).map((action) => ({ action, ...(reply.intent ? { intent: reply.intent } : {}) })));
      output = [
        ...(reply.intent ? [{ type: 'reasoning', id: id('rs'), summary: [{ type: 'summary_text', text: reply.intent }] }] : []),
        ...(actions.length > 0
          ? [
              {
                type: 'computer_call',
                id: id('cu'),
                call_id: id('call'),
                ...(form === 'preview' ? { action: actions[0] } : { actions }),
                pending_safety_checks: checks,
                status: 'completed',
              },
            ]
          : []),
        ...functions.map((action) => ({ type: 'function_call', id: id('fc'), call_id: id('call'), name: String(action.name), arguments: JSON.stringify(action.args ?? {}), status: 'completed' })),
      ];
    } else {
      return reject('A chat message cannot answer a Responses request.');
    }
    const responseId = id('resp');
    for (const item of output) if (typeof item.id === 'string') produced.set(item.id, conversation);
    responses.set(responseId, {
      conversation,
      calls: output
        .filter((item) => item.type === 'computer_call')
        .map((item) => ({ callId: String(item.call_id), checks: (item.pending_safety_checks as FakeSafetyCheck[] | undefined) ?? [] })),
      functionCalls: output.filter((item) => item.type === 'function_call').map((item) => String(item.call_id)),
    });
    const usage = ('usage' in reply && reply.usage) || DEFAULT_USAGE;
    send(res, entry, 200, {
      id: responseId,
      object: 'response',
      created_at: Math.floor(Date.now() / 1000),
      status: 'completed',
      background: false,
      error: null,
      incomplete_details: null,
      instructions: body.instructions ?? null,
      max_output_tokens: null,
      model: `${String(body.model)}-2025-03-11`,
      output,
      parallel_tool_calls: true,
      previous_response_id: body.previous_response_id ?? null,
      reasoning: body.reasoning ?? { effort: null, summary: null },
      store: true,
      temperature: 1,
      text: { format: { type: 'text' } },
      tool_choice: 'auto',
      tools: body.tools,
      top_p: 1,
      truncation: body.truncation ?? 'disabled',
      usage: {
        input_tokens: usage.input,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: usage.output,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: usage.input + usage.output,
      },
      user: null,
      metadata: {},
    });
  }

  async function chatEndpoint(req: IncomingMessage, res: ServerResponse, body: Record<string, unknown>): Promise<void> {
    const entry = record(req, body, 200);
    const reject = (text: string) => send(res, entry, 400, apiError(text, 'invalid_request_error'));
    const messages = Array.isArray(body.messages) ? (body.messages as Record<string, unknown>[]) : [];
    for (const [index, current] of messages.entries()) {
      if (current.role !== 'assistant' || !Array.isArray(current.tool_calls)) continue;
      const answered = new Set<string>();
      for (const later of messages.slice(index + 1)) {
        if (later.role !== 'tool') break;
        answered.add(String(later.tool_call_id));
      }
      const missing = (current.tool_calls as { id: string }[]).filter((call) => !answered.has(call.id)).map((call) => call.id);
      if (missing.length > 0) {
        return reject(`An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${missing.join(', ')}`);
      }
    }
    const prompt = firstUserText(messages);
    let conversation = chats.get(prompt);
    if (!conversation) {
      conversation = { prompt, params: readParams(prompt), turns: 0, memory: {}, queued: [] };
      chats.set(prompt, conversation);
    }
    const turn: FakeTurn = { api: 'chat', form: 'chat', body, prompt, params: conversation.params, turn: conversation.turns++, memory: conversation.memory };
    const reply = queued.length > 0 ? queued.shift()! : await fake.brain(turn);
    if ('http' in reply) return sendHttp(res, entry, reply);
    let assistant: Record<string, unknown>;
    let finish = 'tool_calls';
    if ('message' in reply) {
      assistant = { role: 'assistant', content: null, refusal: null, ...reply.message };
      finish = Array.isArray(assistant.tool_calls) && assistant.tool_calls.length > 0 ? 'tool_calls' : 'stop';
    } else if ('done' in reply) {
      assistant = { role: 'assistant', content: null, refusal: null, tool_calls: [toolCall(id('call'), 'done', { answer: reply.answer })] };
    } else if ('actions' in reply) {
      assistant = {
        role: 'assistant',
        content: reply.intent ?? null,
        refusal: null,
        tool_calls: reply.actions.map(({ type, ...args }) =>
          type === 'tool' ? toolCall(id('call'), String(args.name), (args.args ?? {}) as Record<string, unknown>) : toolCall(id('call'), type, args),
        ),
      };
    } else {
      return reject('Responses output items cannot answer a chat completions request.');
    }
    const usage = ('usage' in reply && reply.usage) || DEFAULT_USAGE;
    const completion = {
      id: id('chatcmpl'),
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: String(body.model),
      choices: [{ index: 0, message: assistant, logprobs: null, finish_reason: finish }],
      usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output },
      system_fingerprint: 'fp_fake',
    };
    if (body.stream === true) return sendChatStream(res, entry, completion, (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true);
    send(res, entry, 200, completion);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, undefined, 500, apiError(`fake server error: ${error instanceof Error ? error.message : String(error)}`, 'server_error'));
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  fake.baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return fake;
}

/** One line per request (ms since the first, path, status, the response it continues), for a failed test's report. */
export function requestTimeline(fake: FakeOpenAI): string {
  const start = fake.requests[0]?.at ?? 0;
  return fake.requests.map((request) => `+${request.at - start}ms ${request.path} ${request.status} ${String(request.body.previous_response_id ?? '(new conversation)')}`).join('\n');
}

/** The assistant message of a finished Responses answer. */
function message(id: string, text: string): Record<string, unknown> {
  return { type: 'message', id, status: 'completed', role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }] };
}

function toolCall(id: string, name: string, args: Record<string, unknown>): Record<string, unknown> {
  return { id, type: 'function', function: { name, arguments: JSON.stringify(args) } };
}

/** The error body the API sends: { error: { message, type, param, code } }. */
/**
 * What the real service refuses in a Responses input, first problem only: an item id it never gave
 * (404), a computer or function call with no output after it or with a pending safety check not
 * acknowledged there, a reasoning item not followed by the item it led to (400).
 */
function checkEchoedItems(input: readonly Record<string, unknown>[], produced: ReadonlyMap<string, unknown>): { status: number; message: string } | undefined {
  for (const [index, item] of input.entries()) {
    const isOutputItem = item.type === 'computer_call' || item.type === 'function_call' || item.type === 'reasoning' || (item.type === 'message' && item.role === 'assistant');
    if (isOutputItem && typeof item.id === 'string' && !produced.has(item.id)) return { status: 404, message: `Item with id '${item.id}' not found.` };
    if (item.type === 'reasoning') {
      const next = input[index + 1];
      if (!next || !['computer_call', 'function_call', 'message'].includes(String(next.type))) return { status: 400, message: `Item '${String(item.id)}' of type 'reasoning' was provided without its required following item.` };
    }
    if (item.type === 'computer_call' || item.type === 'function_call') {
      const outputType = item.type === 'computer_call' ? 'computer_call_output' : 'function_call_output';
      const output = input.slice(index + 1).find((later) => later.type === outputType && later.call_id === item.call_id);
      if (!output) return { status: 400, message: `No tool output found for ${item.type === 'computer_call' ? 'computer' : 'function'} call ${String(item.call_id)}.` };
      const pending = Array.isArray(item.pending_safety_checks) ? (item.pending_safety_checks as { id?: unknown }[]) : [];
      const acknowledged = Array.isArray(output.acknowledged_safety_checks) ? (output.acknowledged_safety_checks as { id?: unknown }[]) : [];
      const missing = pending.find((check) => !acknowledged.some((ack) => ack.id === check.id));
      if (missing) return { status: 400, message: `Safety check ${String(missing.id)} was not acknowledged.` };
    }
  }
  return undefined;
}

export function apiError(text: string, type: string, code: string | null = null, param: string | null = null): Record<string, unknown> {
  return { error: { message: text, type, param, code } };
}

/** The text parts of the first user message of Responses input or chat messages. */
export function firstUserText(items: Record<string, unknown>[]): string {
  const first = items.find((item) => item.role === 'user');
  return first ? textOf(first.content) : '';
}

export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return (content as Record<string, unknown>[])
    .filter((part) => part.type === 'input_text' || part.type === 'text')
    .map((part) => String(part.text))
    .join('\n');
}

function readParams(prompt: string): Record<string, string> {
  const params: Record<string, string> = {};
  for (const match of prompt.matchAll(/^- ([A-Za-z_][A-Za-z0-9_]*): (".*")$/gm)) params[match[1]!] = JSON.parse(match[2]!) as string;
  return params;
}

function sendHttp(res: ServerResponse, entry: RecordedRequest, reply: { http: number; headers?: Record<string, string>; body?: unknown; delayMs?: number; rawBody?: string; cutAfter?: number }): Promise<void> {
  return new Promise((resolve) => {
    setTimeout(() => {
      if (res.destroyed) return resolve();
      if (reply.rawBody !== undefined || reply.cutAfter !== undefined) {
        const text = reply.rawBody ?? JSON.stringify(reply.body ?? {});
        entry.status = reply.http;
        res.writeHead(reply.http, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), ...reply.headers });
        if (reply.cutAfter === undefined) res.end(text);
        else res.write(text.slice(0, reply.cutAfter), () => res.destroy());
        return resolve();
      }
      send(res, entry, reply.http, reply.body ?? apiError(`HTTP ${reply.http}`, 'server_error'), reply.headers);
      resolve();
    }, reply.delayMs ?? 0);
  });
}

/**
 * A chat completion as OpenAI streams it: chunks that share id and created, the role first, the
 * text in pieces, each tool call's id and name and then its arguments in two pieces, the finish
 * reason in the last choice chunk, a usage chunk with no choices when asked for, then [DONE].
 */
function sendChatStream(res: ServerResponse, entry: RecordedRequest, completion: { id: string; created: number; model: string; choices: { message: Record<string, unknown>; finish_reason: string }[]; usage: unknown }, includeUsage: boolean): void {
  entry.status = 200;
  const { message, finish_reason: finish } = completion.choices[0]!;
  const base = { id: completion.id, object: 'chat.completion.chunk', created: completion.created, model: completion.model, system_fingerprint: 'fp_fake', ...(includeUsage ? { usage: null } : {}) };
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) => ({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] });
  const chunks: unknown[] = [chunk({ role: 'assistant', content: '', refusal: null })];
  const content = typeof message.content === 'string' ? message.content : '';
  for (let at = 0; at < content.length; at += 7) chunks.push(chunk({ content: content.slice(at, at + 7) }));
  const calls = (Array.isArray(message.tool_calls) ? message.tool_calls : []) as { id: string; function: { name: string; arguments: string } }[];
  calls.forEach((call, index) => {
    const half = Math.floor(call.function.arguments.length / 2);
    chunks.push(chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] }));
    chunks.push(chunk({ tool_calls: [{ index, function: { arguments: call.function.arguments.slice(0, half) } }] }));
    chunks.push(chunk({ tool_calls: [{ index, function: { arguments: call.function.arguments.slice(half) } }] }));
  });
  chunks.push(chunk({}, finish));
  if (includeUsage) chunks.push({ ...base, choices: [], usage: completion.usage });
  res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'x-request-id': `req_fake_${Date.now()}` });
  for (const one of chunks) res.write(`data: ${JSON.stringify(one)}\n\n`);
  res.end('data: [DONE]\n\n');
}

function send(res: ServerResponse, entry: RecordedRequest | undefined, status: number, value: unknown, headers: Record<string, string> = {}): void {
  if (entry) entry.status = status;
  const text = JSON.stringify(value);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), 'x-request-id': `req_fake_${Date.now()}`, ...headers });
  res.end(text);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

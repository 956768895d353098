import { randomBytes } from 'node:crypto';
import OpenAI from 'openai';
import type { FakeBrain } from './fakeOpenAI.js';

/**
 * A tool-calling agent whose code rote does not own, for the proxy's tests: its own loop and
 * messages through the real openai client, filling a record with a `fill` tool; and the scripted
 * model behind it (a brain for fakeOpenAI.ts). Only its base URL and a Rote-Params header point it
 * at the proxy.
 */
export const FIELDS = ['first', 'last', 'city', 'qty', 'plan'] as const;
export type Row = Record<(typeof FIELDS)[number], string>;
export const ADA: Row = { first: 'Ada', last: 'Lovelace', city: 'Waco', qty: '250', plan: 'Basic' };
export const JO: Row = { first: 'Joan', last: "O'Neil", city: 'Ames', qty: '1500', plan: 'Standard' };
export const GRACE: Row = { first: 'Grace', last: 'Hopper', city: 'Austin', qty: '1200', plan: 'Premium' };
export const CYD: Row = { first: 'Cyd', last: 'Charisse', city: 'Ely', qty: '330', plan: 'Gold' };
export const DEE: Row = { first: 'Dee', last: 'Dunmore', city: 'Hilo', qty: '640', plan: 'Silver' };
const TOOLS = [{ type: 'function' as const, function: { name: 'fill', parameters: { type: 'object', properties: { field: { type: 'string' }, value: {} } } } }];

const call = (name: string, args: Record<string, unknown>) => ({ id: `call_${randomBytes(6).toString('hex')}`, type: 'function', function: { name, arguments: JSON.stringify(args) } });

/** The upstream model: fills the next field the tool results have not confirmed, unlocks a locked one, then says it saved. */
export const brain: FakeBrain = ({ body, params }) => {
  const results = (body.messages as { role: string; content?: unknown }[]).filter((m) => m.role === 'tool').map((m) => String(m.content));
  const filled = results.filter((result) => result === 'ok').length;
  if (results.at(-1) === 'locked') return { message: { tool_calls: [call('unlock', { field: FIELDS[filled] })] } };
  if (filled < FIELDS.length) {
    const field = FIELDS[filled]!;
    const value = field === 'qty' ? Number(params.qty) : params[field];
    return { message: { tool_calls: [call('fill', { field, value })] } };
  }
  return { message: { content: `Saved the record of ${params.first} ${params.last} in ${params.city}.` } };
};

export type AgentRun = { text: string | null; caches: (string | null)[]; fills: Record<string, unknown>[]; /** Rote-Node of each answer: the stored node a hit came from. */ nodes: (string | null)[] };

/** The agent: its own loop, its own messages; rote only changed its base URL and (unless `declare` is false) added the header. */
export async function agent(proxy: { url: string }, row: Row, options: { stream?: boolean; lockedAtTurn?: number; apiKey?: string; declare?: boolean } = {}): Promise<AgentRun> {
  const run: AgentRun = { text: null, caches: [], fills: [], nodes: [] };
  // What the proxy said of each answer, read where the client's own fetch sees it.
  const seen: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    run.caches.push(response.headers.get('rote-cache'));
    run.nodes.push(response.headers.get('rote-node'));
    return response;
  };
  const client = new OpenAI({ baseURL: `${proxy.url}/v1`, apiKey: options.apiKey ?? 'sk-test-team-a', maxRetries: 0, fetch: seen, defaultHeaders: options.declare === false ? {} : { 'Rote-Params': JSON.stringify(row) } });
  const prompt = `Register the patient.\n${FIELDS.map((field) => `- ${field}: ${JSON.stringify(row[field])}`).join('\n')}`;
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
    { role: 'system', content: 'You fill records with the fill tool.' },
    { role: 'user', content: prompt },
  ];
  for (let turn = 0; turn < 12; turn++) {
    let message: OpenAI.Chat.ChatCompletionMessage;
    if (options.stream) {
      const stream = client.chat.completions.stream({ model: 'gpt-4.1-mini', temperature: 0, messages, tools: TOOLS, stream_options: { include_usage: true } });
      message = (await stream.finalChatCompletion()).choices[0]!.message;
    } else {
      message = (await client.chat.completions.create({ model: 'gpt-4.1-mini', temperature: 0, messages, tools: TOOLS })).choices[0]!.message;
    }
    messages.push(message as OpenAI.Chat.ChatCompletionAssistantMessageParam);
    if (!message.tool_calls?.length) {
      run.text = message.content;
      return run;
    }
    for (const toolCall of message.tool_calls) {
      if (toolCall.type !== 'function') throw new Error('a custom tool call');
      const args = JSON.parse(toolCall.function.arguments) as Record<string, unknown>;
      if (toolCall.function.name === 'fill') run.fills.push(args);
      messages.push({ role: 'tool', tool_call_id: toolCall.id, content: turn === options.lockedAtTurn ? 'locked' : 'ok' });
    }
  }
  throw new Error('the agent did not finish in 12 turns');
}

export const expectedFills = (row: Row) => FIELDS.map((field) => ({ field, value: field === 'qty' ? Number(row.qty) : row[field] }));


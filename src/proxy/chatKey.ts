import { createHash } from 'node:crypto';
import { accept, refuse, type Outcome } from '../errors/refusal.js';
import { canonicalJson, isJsonObject, type JsonValue } from '../params/jsonValues.js';
import { templateText, type DeclaredValues } from './declaredValues.js';
import { templateJsonText } from './jsonTemplates.js';

/**
 * Where a chat completions request stands in a namespace's tree: the request's shape (the model,
 * the tools and every setting that changes what the model answers) picks the tree's root, and each
 * message, canonical and with the declared values templated, is one level below it.
 *
 * Canonical: what the client's library varies without meaning anything is left out, and nothing
 * else. Tool call ids are minted by the upstream on each answer, so an assistant's tool calls are
 * keyed by everything but their ids, and a tool result by the position of the call it answers. A
 * field that is null or an empty array is one that is absent. Keys are written in one order; a
 * string's content and the array of text parts that says the same are one level.
 */
export type ChatKey = {
  /** A hash of the settings that are part of the key (everything but the messages and how the answer is delivered). */
  shape: string;
  /** One canonical string per message, values templated. */
  levels: string[];
  /** The declared values that appear in the messages. */
  used: Set<string>;
};

/** How the answer is delivered, or who asked: not what the model is asked, so not part of the key. */
const DELIVERY_FIELDS = new Set(['messages', 'stream', 'stream_options', 'user', 'metadata', 'store', 'service_tier', 'safety_identifier', 'prompt_cache_key']);

type Body = Record<string, unknown>;
type Message = Record<string, unknown>;

export function chatKey(body: Body, values: DeclaredValues): Outcome<ChatKey> {
  try {
    return keyOf(body, values);
  } catch (error) {
    // JSON nested thousands deep overflows the stack of any walk over it: forwarded, never a crash.
    if (error instanceof RangeError) return refuse('the request is nested too deeply to key');
    throw error;
  }
}

function keyOf(body: Body, values: DeclaredValues): Outcome<ChatKey> {
  const settings = Object.fromEntries(Object.entries(body).filter(([field]) => !DELIVERY_FIELDS.has(field)));
  const shape = createHash('sha256').update(canonicalJson(settings as JsonValue)).digest('hex');
  const messages = body.messages as Message[];
  const used = new Set<string>();
  const levels: string[] = [];
  for (let index = 0; index < messages.length; index++) {
    const canonical = canonicalMessage(messages, index);
    const level = canonical.ok ? templateMessage(canonical.value, values, used) : canonical;
    if (!level.ok) return refuse(`message ${index}: ${level.reason}`);
    levels.push(level.value);
  }
  return accept({ shape, levels, used });
}

/**
 * A stored level (a message as the key spells it, with no values templated) with these values
 * templated: the very level `chatKey` gives the request it came from with these values declared.
 */
export function templateLevel(level: string, values: DeclaredValues, used: Set<string>): Outcome<string> {
  return templateMessage(JSON.parse(level) as Message, values, used);
}

/** The message in its canonical spelling, nothing templated yet: every field but the ones clients vary without meaning anything. */
function canonicalMessage(messages: readonly Message[], index: number): Outcome<Message> {
  const message = messages[index]!;
  // Every field counts (a name, a refusal, audio, a legacy function_call), but one that is null or
  // empty is one that is not there: clients echo an answer's `refusal: null` and `annotations: []`.
  // Built from entries: a field named __proto__ is a field like any other, not the object's prototype.
  const out: Message = Object.fromEntries(
    Object.entries(message).filter(([field, value]) => !(value === null || value === undefined || (Array.isArray(value) && value.length === 0)) && field !== 'content' && field !== 'tool_calls' && field !== 'tool_call_id'),
  );
  const content = canonicalContent(message.content);
  if (!content.ok) return content;
  if (content.value !== undefined) out.content = content.value;
  if (Array.isArray(message.tool_calls) && message.tool_calls.length > 0) {
    const calls = message.tool_calls as unknown[];
    if (!calls.every(isJsonObject)) return refuse('a tool call that is not an object');
    // The id is the upstream's, new on every answer; everything else of the call counts.
    out.tool_calls = calls.map((call) => Object.fromEntries(Object.entries(call).filter(([field]) => field !== 'id')));
  }
  if (message.role === 'tool') {
    const answered = callPosition(messages, index, message.tool_call_id);
    if (answered === undefined) return refuse(`it answers tool call ${JSON.stringify(message.tool_call_id)}, which no assistant message before it made`);
    out.answers = answered;
  }
  return accept(out);
}

/** A string, or an array of parts (an array of text parts alone is the string they make). */
function canonicalContent(content: unknown): Outcome<unknown> {
  if (content === undefined || content === null) return accept(undefined);
  if (typeof content === 'string') return accept(content);
  if (!Array.isArray(content)) return refuse('its content is neither a string nor an array of parts');
  if (!content.every(isJsonObject)) return refuse('a content part that is not an object');
  const parts = content as Record<string, unknown>[];
  if (parts.every((part) => part.type === 'text')) return accept(parts.map((part) => String(part.text ?? '')).join(''));
  return accept(parts.map((part) => (part.type === 'text' ? { type: 'text', text: String(part.text ?? '') } : part)));
}

/** The canonical message's level: its text, text parts and function arguments with the values templated. */
function templateMessage(message: Message, values: DeclaredValues, used: Set<string>): Outcome<string> {
  const text = (value: string): Outcome<string> => {
    const templated = templateText(value, values);
    if (!templated.ok) return templated;
    templated.value.used.forEach((name) => used.add(name));
    return accept(templated.value.text);
  };
  const out: Message = { ...message };
  if (typeof message.content === 'string') {
    const content = text(message.content);
    if (!content.ok) return content;
    out.content = content.value;
  } else if (Array.isArray(message.content)) {
    const parts: unknown[] = [];
    for (const part of message.content as Record<string, unknown>[]) {
      if (part.type !== 'text') {
        parts.push(part);
        continue;
      }
      const templated = text(String(part.text ?? ''));
      if (!templated.ok) return templated;
      parts.push({ type: 'text', text: templated.value });
    }
    out.content = parts;
  }
  if (Array.isArray(message.tool_calls)) {
    const calls: unknown[] = [];
    for (const call of message.tool_calls as Record<string, unknown>[]) {
      const fn = call.function as Record<string, unknown> | undefined;
      if (call.type === 'function' && fn && typeof fn.arguments === 'string') {
        const args = templateJsonText(fn.arguments, values);
        if (!args.ok) return args;
        args.value.used.forEach((name) => used.add(name));
        calls.push({ ...call, function: { ...fn, arguments: args.value.text } });
      } else {
        calls.push(call);
      }
    }
    out.tool_calls = calls;
  }
  return accept(canonicalJson(out as JsonValue));
}

/** Which call of the last assistant message before `index` the id names ("2" for its third), across that message's calls. */
function callPosition(messages: readonly Message[], index: number, id: unknown): string | undefined {
  for (let at = index - 1; at >= 0; at--) {
    const message = messages[at]!;
    if (message.role !== 'assistant') continue;
    const calls = Array.isArray(message.tool_calls) ? (message.tool_calls as Record<string, unknown>[]) : [];
    const position = calls.findIndex((call) => call.id === id);
    return position >= 0 ? String(position) : undefined;
  }
  return undefined;
}

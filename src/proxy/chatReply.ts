import { randomBytes } from 'node:crypto';
import { accept, refuse, type Outcome } from '../errors/refusal.js';
import { renderText, templateText, type DeclaredValues } from './declaredValues.js';
import { renderJsonText, templateJsonText } from './jsonTemplates.js';

/**
 * A chat completion's reply as the tree keeps it: the assistant message of its one choice, with
 * the values the request used templated, why it finished, the model that wrote it and the tokens
 * it cost (what a hit saves). Only a whole answer is kept: one that was cut short (`length`) or
 * filtered (`content_filter`) may be wrong to serve again.
 */
export type StoredReply = {
  model: string;
  finishReason: 'stop' | 'tool_calls';
  /** The text, templated; null when the message has none (tool calls only). */
  content: string | null;
  toolCalls: { name: string; arguments: string }[];
  usage: { promptTokens: number; completionTokens: number };
};

/** Why a request is forwarded without looking in the tree, or undefined when it may be served. */
export function bypassReason(body: Record<string, unknown>): string | undefined {
  // Several choices ask for answers that differ from each other: one stored answer is not that.
  if (typeof body.n === 'number' && body.n > 1) return `n is ${body.n}: several different choices were asked for`;
  // Token probabilities describe a sampling that a stored reply did not make.
  if (body.logprobs === true || body.top_logprobs !== undefined) return 'logprobs were asked for: a stored reply has none of its own';
  // Above the default of 1 the caller asks for more randomness than the model's own: a different
  // answer each time is the point, and one stored answer would deny it. At or below 1 (an agent's
  // usual setting, and the default when none is sent) the stored answer is one the model gives.
  if (typeof body.temperature === 'number' && body.temperature > 1) return `temperature is ${body.temperature}: above the default of 1, the request asks for varied answers`;
  return undefined;
}

/** The reply of an upstream chat.completion, ready for the tree; refused (with why) when it must not be stored. */
export function storableReply(completion: Record<string, unknown>, values: DeclaredValues, used: ReadonlySet<string>): Outcome<StoredReply> {
  const choices = Array.isArray(completion.choices) ? (completion.choices as Record<string, unknown>[]) : [];
  if (choices.length !== 1) return refuse(`the reply has ${choices.length} choices, not one`);
  const choice = choices[0]!;
  const finish = choice.finish_reason;
  if (finish !== 'stop' && finish !== 'tool_calls') return refuse(`the reply finished with ${JSON.stringify(finish)}: only a whole answer (stop, tool_calls) is kept`);
  const message = (choice.message ?? {}) as Record<string, unknown>;
  if (typeof message.refusal === 'string' && message.refusal !== '') return refuse('the reply is a refusal');
  // Spoken answers and anything else beside the text and tool calls are not what a hit serves back.
  for (const field of ['audio', 'function_call'] as const) if (message[field] !== undefined && message[field] !== null) return refuse(`the reply has ${field}, which is not kept`);
  // Only values the request holds: a reply that shows one the request never sent did not take it from there.
  const inRequest = new Map([...values].filter(([name]) => used.has(name)));
  let content: string | null = null;
  if (typeof message.content === 'string') {
    const templated = templateText(message.content, inRequest);
    if (!templated.ok) return templated;
    content = templated.value.text;
  }
  const toolCalls: StoredReply['toolCalls'] = [];
  for (const call of Array.isArray(message.tool_calls) ? (message.tool_calls as Record<string, unknown>[]) : []) {
    const fn = (call.function ?? {}) as Record<string, unknown>;
    if (call.type !== 'function' || typeof fn.name !== 'string') return refuse(`the reply calls a tool of type ${JSON.stringify(call.type)}, which is not kept`);
    const args = templateJsonText(String(fn.arguments ?? ''), inRequest);
    if (!args.ok) return args;
    toolCalls.push({ name: fn.name, arguments: args.value.text });
  }
  const usage = (completion.usage ?? {}) as Record<string, unknown>;
  return accept({
    model: String(completion.model ?? ''),
    finishReason: finish,
    content,
    toolCalls,
    usage: { promptTokens: Number(usage.prompt_tokens ?? 0), completionTokens: Number(usage.completion_tokens ?? 0) },
  });
}

/** The assistant message a hit serves: the stored reply with this request's values, and tool call ids of the proxy's own. */
export function renderReply(reply: StoredReply, values: DeclaredValues): Outcome<{ content: string | null; toolCalls: { id: string; name: string; arguments: string }[] }> {
  let content: string | null = null;
  if (reply.content !== null) {
    const rendered = renderText(reply.content, values);
    if (!rendered.ok) return rendered;
    content = rendered.value;
  }
  const toolCalls = [];
  for (const call of reply.toolCalls) {
    const args = renderJsonText(call.arguments, values);
    if (!args.ok) return args;
    toolCalls.push({ id: `call_rote${randomBytes(12).toString('hex')}`, name: call.name, arguments: args.value });
  }
  return accept({ content, toolCalls });
}

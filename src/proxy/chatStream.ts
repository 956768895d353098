/**
 * Chat completions as server-sent events, both ways: a served reply written as the chunks the
 * upstream sends (the role first, the text, each tool call's id and name and then its arguments,
 * the finish reason, the usage chunk when asked for, then `[DONE]`), and a forwarded stream read
 * back into the completion it adds up to, so that a streamed miss is kept like any other.
 */
export type ServedMessage = { content: string | null; toolCalls: { id: string; name: string; arguments: string }[] };

export function chunksOf(served: ServedMessage, meta: { id: string; created: number; model: string; finishReason: string; includeUsage: boolean }): string[] {
  const base = { id: meta.id, object: 'chat.completion.chunk', created: meta.created, model: meta.model, system_fingerprint: null, ...(meta.includeUsage ? { usage: null } : {}) };
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) => ({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] });
  const chunks: unknown[] = [chunk({ role: 'assistant', content: served.toolCalls.length > 0 && served.content === null ? null : '', refusal: null })];
  if (served.content) chunks.push(chunk({ content: served.content }));
  served.toolCalls.forEach((call, index) => {
    chunks.push(chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }));
    chunks.push(chunk({ tool_calls: [{ index, function: { arguments: call.arguments } }] }));
  });
  chunks.push(chunk({}, meta.finishReason));
  if (meta.includeUsage) chunks.push({ ...base, choices: [], usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 } });
  return [...chunks.map((one) => `data: ${JSON.stringify(one)}\n\n`), 'data: [DONE]\n\n'];
}

/** The completion a forwarded stream adds up to; undefined when it did not end with [DONE] or could not be read. */
export function completionOfStream(text: string): Record<string, unknown> | undefined {
  let model = '';
  let content: string | null = null;
  let refusal: string | null = null;
  let finish: unknown = null;
  let usage: unknown;
  let done = false;
  const calls: { id?: string; type?: string; name?: string; arguments: string }[] = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('data:')) continue;
    const data = line.slice(5).trim();
    if (data === '[DONE]') {
      done = true;
      continue;
    }
    let chunk: Record<string, unknown>;
    try {
      chunk = JSON.parse(data) as Record<string, unknown>;
    } catch {
      return undefined;
    }
    if (typeof chunk.model === 'string') model = chunk.model;
    if (chunk.usage) usage = chunk.usage;
    for (const choice of (Array.isArray(chunk.choices) ? chunk.choices : []) as Record<string, unknown>[]) {
      // One choice is all the tree keeps; a stream of several is not read.
      if (choice.index !== 0) return undefined;
      const delta = (choice.delta ?? {}) as Record<string, unknown>;
      if (typeof delta.content === 'string') content = (content ?? '') + delta.content;
      // A refusal streams in its own field: read, so that it is never kept as an empty answer.
      if (typeof delta.refusal === 'string') refusal = (refusal ?? '') + delta.refusal;
      if (delta.audio !== undefined && delta.audio !== null) return undefined;
      for (const part of (Array.isArray(delta.tool_calls) ? delta.tool_calls : []) as Record<string, unknown>[]) {
        const index = Number(part.index);
        const call = (calls[index] ??= { arguments: '' });
        const fn = (part.function ?? {}) as Record<string, unknown>;
        if (typeof part.id === 'string') call.id = part.id;
        if (typeof part.type === 'string') call.type = part.type;
        if (typeof fn.name === 'string') call.name = fn.name;
        if (typeof fn.arguments === 'string') call.arguments += fn.arguments;
      }
      if (choice.finish_reason) finish = choice.finish_reason;
    }
  }
  if (!done) return undefined;
  const toolCalls = calls.map((call) => ({ id: call.id, type: call.type ?? 'function', function: { name: call.name, arguments: call.arguments } }));
  return { model, usage, choices: [{ index: 0, message: { role: 'assistant', content, refusal, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) }, finish_reason: finish }] };
}

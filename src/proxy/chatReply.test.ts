import { describe, expect, it } from 'vitest';
import { chatKey } from './chatKey.js';
import { bypassReason, renderReply, storableReply } from './chatReply.js';
import { completionOfStream } from './chatStream.js';
import { MemoryConversationTree } from './conversationTree.js';

const values = (object: Record<string, string>) => new Map(Object.entries(object));

/** An upstream chat.completion with one choice. */
function completion(message: Record<string, unknown>, finish = 'tool_calls') {
  return { id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'gpt-4.1-mini', choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish, logprobs: null }], usage: { prompt_tokens: 120, completion_tokens: 18, total_tokens: 138 } };
}

const fill = completion({ content: null, tool_calls: [{ id: 'call_up1', type: 'function', function: { name: 'fill', arguments: '{"field":"City","value":"Waco","qty":250}' } }] });

describe('a reply kept in the tree', () => {
  it('is templated with the values the request used and served with the next request\'s, under ids of the proxy\'s own', () => {
    const stored = storableReply(fill, values({ city: 'Waco', qty: '250' }), new Set(['city', 'qty']));
    if (!stored.ok) throw new Error(stored.reason);
    expect(stored.value.usage).toEqual({ promptTokens: 120, completionTokens: 18 });
    const served = renderReply(stored.value, values({ city: 'Ames', qty: '1500' }));
    if (!served.ok) throw new Error(served.reason);
    expect(JSON.parse(served.value.toolCalls[0]!.arguments)).toEqual({ field: 'City', value: 'Ames', qty: 1500 });
    expect(served.value.toolCalls[0]!.id).toMatch(/^call_rote[0-9a-f]{24}$/);
  });

  it('keeps a value the request never sent as it is: the model did not take it from the request', () => {
    const stored = storableReply(completion({ content: 'Waco is in Texas.' }, 'stop'), values({ city: 'Waco' }), new Set());
    expect(stored.ok && stored.value.content).toBe('Waco is in Texas.');
  });

  it('is not kept when it is a streamed refusal or has audio', () => {
    const streamed = completionOfStream(['data: {"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}', 'data: {"model":"m","choices":[{"index":0,"delta":{"refusal":"I cannot "}}]}', 'data: {"model":"m","choices":[{"index":0,"delta":{"refusal":"help."},"finish_reason":"stop"}]}', 'data: [DONE]'].join('\n\n'));
    expect(streamed && storableReply(streamed, new Map(), new Set())).toMatchObject({ ok: false, reason: 'the reply is a refusal' });
    expect(storableReply(completion({ content: null, audio: { id: 'audio_1', data: 'UklG' } }, 'stop'), new Map(), new Set())).toMatchObject({ ok: false, reason: 'the reply has audio, which is not kept' });
  });

  it('is not kept when it was cut short, filtered, a refusal, or more than one choice', () => {
    expect(storableReply(completion({ content: 'Half an ans' }, 'length'), new Map(), new Set())).toMatchObject({ ok: false, reason: expect.stringContaining('"length"') });
    expect(storableReply(completion({ content: '' }, 'content_filter'), new Map(), new Set())).toMatchObject({ ok: false, reason: expect.stringContaining('"content_filter"') });
    expect(storableReply(completion({ content: null, refusal: 'I cannot help with that.' }, 'stop'), new Map(), new Set())).toMatchObject({ ok: false, reason: 'the reply is a refusal' });
    const two = { ...fill, choices: [fill.choices[0], { ...fill.choices[0], index: 1 }] };
    expect(storableReply(two, new Map(), new Set())).toMatchObject({ ok: false, reason: 'the reply has 2 choices, not one' });
  });

  it('forwards requests that ask for variety or for token probabilities', () => {
    expect(bypassReason({ n: 3 })).toContain('n is 3');
    expect(bypassReason({ logprobs: true })).toContain('logprobs');
    expect(bypassReason({ n: 1, temperature: 0.7 })).toBeUndefined();
    expect(bypassReason({ temperature: 1 })).toBeUndefined();
    expect(bypassReason({ temperature: 1.3 })).toContain('temperature is 1.3');
  });
});

describe('the conversation tree', () => {
  const request = (first: string, result?: string) => ({
    model: 'gpt-4.1-mini',
    messages: [
      { role: 'user', content: `Register ${first}.` },
      ...(result === undefined ? [] : [{ role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup', arguments: `{"name":"${first}"}` } }] }, { role: 'tool', tool_call_id: 'call_1', content: result }]),
    ],
  });
  const keyOf = (body: Record<string, unknown>, first: string) => {
    const key = chatKey(body, values({ first }));
    if (!key.ok) throw new Error(key.reason);
    return key.value;
  };

  it('serves a whole match, says where a request left it, and keeps namespaces apart', async () => {
    const tree = new MemoryConversationTree();
    const first = keyOf(request('Ada'), 'Ada');
    expect(await tree.lookup('team-a', first)).toMatchObject({ kind: 'miss', depth: 0 });
    const stored = storableReply(fill, values({ first: 'Ada' }), first.used);
    if (!stored.ok) throw new Error(stored.reason);
    await tree.store('team-a', first, stored.value);
    expect(await tree.lookup('team-a', keyOf(request('Joan'), 'Joan'))).toMatchObject({ kind: 'hit' });
    expect(await tree.lookup('team-b', keyOf(request('Joan'), 'Joan'))).toMatchObject({ kind: 'miss', depth: 0 });
    // A turn further on: the first message is known, the tool call and its result are not.
    expect(await tree.lookup('team-a', keyOf(request('Joan', 'found'), 'Joan'))).toMatchObject({ kind: 'miss', depth: 1, reason: 'message 1 is new here' });
    await tree.store('team-a', keyOf(request('Ada', 'found'), 'Ada'), stored.value);
    expect(await tree.lookup('team-a', keyOf(request('Joan', 'found'), 'Joan'))).toMatchObject({ kind: 'hit' });
    // A tool result with other data branches at its own message.
    expect(await tree.lookup('team-a', keyOf(request('Joan', 'not found'), 'Joan'))).toMatchObject({ kind: 'miss', depth: 2, reason: 'message 2 is new here' });
  });
});

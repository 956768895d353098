import { describe, expect, it } from 'vitest';
import { chatKey } from './chatKey.js';

const values = (object: Record<string, string>) => new Map(Object.entries(object));

/** A tool-calling conversation as the openai client sends it, with the upstream's call ids. */
function conversation(first: string, callId: string, weather: string, extra: Record<string, unknown> = {}) {
  return {
    model: 'gpt-4.1-mini',
    temperature: 0,
    tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: { name: { type: 'string' } } } } }],
    messages: [
      { role: 'system', content: 'You file intake forms.' },
      { role: 'user', content: `Register ${first} Lee.` },
      { role: 'assistant', content: null, tool_calls: [{ id: callId, type: 'function', function: { name: 'lookup', arguments: `{"name":"${first}"}` } }] },
      { role: 'tool', tool_call_id: callId, content: weather },
    ],
    ...extra,
  };
}

function key(body: Record<string, unknown>, declared: Record<string, string>) {
  const result = chatKey(body, values(declared));
  if (!result.ok) throw new Error(result.reason);
  return result.value;
}

describe('a chat request in the tree', () => {
  it('is the same path for other declared values and other call ids', () => {
    const ada = key(conversation('Ada', 'call_abc', 'found'), { first: 'Ada' });
    const jo = key(conversation('Joan', 'call_xyz', 'found'), { first: 'Joan' });
    expect(jo).toEqual(ada);
    expect([...ada.used]).toEqual(['first']);
    expect(ada.levels).toHaveLength(4);
  });

  it('leaves the tree at the message that differs, and only there: a tool result with new data', () => {
    const found = key(conversation('Ada', 'call_abc', 'found'), { first: 'Ada' });
    const missing = key(conversation('Ada', 'call_abc', 'not found'), { first: 'Ada' });
    expect(missing.levels.slice(0, 3)).toEqual(found.levels.slice(0, 3));
    expect(missing.levels[3]).not.toEqual(found.levels[3]);
  });

  it('without declared values, another name is another path', () => {
    expect(key(conversation('Joan', 'call_abc', 'found'), {}).levels[1]).not.toEqual(key(conversation('Ada', 'call_abc', 'found'), {}).levels[1]);
  });

  it('keys the model, the tools and the sampling settings, not how the answer is delivered', () => {
    const plain = key(conversation('Ada', 'c', 'found'), { first: 'Ada' });
    expect(key(conversation('Ada', 'c', 'found', { stream: true, stream_options: { include_usage: true }, user: 'u-1' }), { first: 'Ada' }).shape).toBe(plain.shape);
    expect(key(conversation('Ada', 'c', 'found', { temperature: 0.7 }), { first: 'Ada' }).shape).not.toBe(plain.shape);
    expect(key(conversation('Ada', 'c', 'found', { model: 'gpt-4.1' }), { first: 'Ada' }).shape).not.toBe(plain.shape);
    expect(key(conversation('Ada', 'c', 'found', { tools: [] }), { first: 'Ada' }).shape).not.toBe(plain.shape);
  });

  it('keys every field but the ids: a legacy function_call counts, a null refusal or empty annotations do not', () => {
    const calling = (path: string) => key({ model: 'm', messages: [{ role: 'user', content: 'Tidy up.' }, { role: 'assistant', content: null, function_call: { name: 'delete_file', arguments: `{"path":"${path}"}` } }] }, {});
    expect(calling('b.txt').levels[1]).not.toEqual(calling('a.txt').levels[1]);
    const plain = key({ model: 'm', messages: [{ role: 'assistant', content: 'Done.' }] }, {});
    const echoed = key({ model: 'm', messages: [{ role: 'assistant', content: 'Done.', refusal: null, annotations: [] }] }, {});
    expect(echoed.levels).toEqual(plain.levels);
  });

  it('reads a content of text parts as the string they make', () => {
    const asString = key({ model: 'm', messages: [{ role: 'user', content: 'Register Ada Lee.' }] }, { first: 'Ada' });
    const asParts = key({ model: 'm', messages: [{ role: 'user', content: [{ type: 'text', text: 'Register Ada ' }, { type: 'text', text: 'Lee.' }] }] }, { first: 'Ada' });
    expect(asParts.levels).toEqual(asString.levels);
  });

  it('refuses a tool result that answers no call before it, naming the message', () => {
    const body = conversation('Ada', 'call_abc', 'found');
    (body.messages[3] as { tool_call_id: string }).tool_call_id = 'call_other';
    expect(chatKey(body, values({ first: 'Ada' }))).toMatchObject({ ok: false, reason: 'message 3: it answers tool call "call_other", which no assistant message before it made' });
  });
});

describe('a request the key cannot spell', () => {
  it('is refused (and so forwarded), never a crash: a null tool call or part, a field named __proto__, JSON nested thousands deep', () => {
    expect(chatKey({ model: 'm', messages: [{ role: 'assistant', tool_calls: [null] }] }, new Map())).toMatchObject({ ok: false, reason: expect.stringContaining('a tool call that is not an object') });
    expect(chatKey({ model: 'm', messages: [{ role: 'user', content: [null] }] }, new Map())).toMatchObject({ ok: false, reason: expect.stringContaining('a content part that is not an object') });
    let deep: unknown = 'x';
    for (let depth = 0; depth < 20_000; depth++) deep = [deep];
    expect(chatKey({ model: 'm', messages: [{ role: 'user', content: 'hi', extra: deep }] }, new Map())).toMatchObject({ ok: false, reason: 'the request is nested too deeply to key' });
    const proto = JSON.parse('{"role":"user","content":"hi","__proto__":{"detail":"high"}}') as Record<string, unknown>;
    const plain = chatKey({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }, new Map());
    const withProto = chatKey({ model: 'm', messages: [proto] }, new Map());
    if (!plain.ok || !withProto.ok) throw new Error('expected keys');
    expect(withProto.value.levels[0]).not.toBe(plain.value.levels[0]);
  });
});

import { expect, test } from '@playwright/test';
import { MemoryConversationTree } from '../src/proxy/conversationTree.js';
import { startProxy, type RunningProxy } from '../src/proxy/proxyServer.js';
import { ADA, agent, brain, CYD, DEE, expectedFills, GRACE, JO } from './support/chatAgent.js';
import { startFakeOpenAI, type FakeOpenAI } from './support/fakeOpenAI.js';

/**
 * `rote proxy` for chat completions, driven by the real openai client as an agent whose code we
 * do not own: a tool-calling loop that fills a record, through the proxy, against a scripted
 * upstream that speaks the wire format and counts its calls.
 */
let upstream: FakeOpenAI;
let proxy: RunningProxy;
let log: string[];
test.beforeEach(async () => {
  upstream = await startFakeOpenAI({ brain });
  log = [];
  proxy = await startProxy({ upstream: new URL(upstream.baseURL), tree: new MemoryConversationTree(), log: (line) => log.push(line) });
});
test.afterEach(async () => {
  await proxy.close();
  await upstream.close();
});

for (const stream of [false, true]) {
  test(`a 6-turn tool loop is forwarded once, then served whole from the tree with other values${stream ? ', streamed' : ''}`, async () => {
    const first = await agent(proxy, ADA, { stream });
    expect(first.caches).toEqual(['miss', 'miss', 'miss', 'miss', 'miss', 'miss']);
    expect(first.fills).toEqual(expectedFills(ADA));
    expect(upstream.requests).toHaveLength(6);

    const second = await agent(proxy, JO, { stream });
    expect(second.caches).toEqual(['hit', 'hit', 'hit', 'hit', 'hit', 'hit']);
    expect(upstream.requests).toHaveLength(6);
    // The tool calls and the text carry the new values: an apostrophe and a number included.
    expect(second.fills).toEqual(expectedFills(JO));
    expect(second.text).toBe(`Saved the record of Joan O'Neil in Ames.`);
  });
}

test('a tool result that differs at turn 3 goes upstream from there; a third run with the same difference replays its branch', async () => {
  await agent(proxy, ADA);
  expect(upstream.requests).toHaveLength(6);
  const locked = await agent(proxy, JO, { lockedAtTurn: 2 });
  // Turns 1 to 3 are known; the locked result is new, and so is every turn after it.
  expect(locked.caches.slice(0, 3)).toEqual(['hit', 'hit', 'hit']);
  expect(locked.caches.slice(3).every((cache) => cache === 'miss')).toBe(true);
  expect(upstream.requests).toHaveLength(6 + locked.caches.length - 3);
  expect(locked.fills.at(-1)).toEqual({ field: 'plan', value: 'Standard' });
  const again = await agent(proxy, { ...ADA, first: 'Cyd', city: 'Ely' }, { lockedAtTurn: 2 });
  expect(again.caches.every((cache) => cache === 'hit')).toBe(true);
  expect(upstream.requests).toHaveLength(6 + locked.caches.length - 3);
  expect(again.fills.map((fill) => fill.value)).toEqual(['Cyd', 'Lovelace', 'Ely', 250, 'Basic']);
});

test('with no Rote-Params, two runs that differ only in values teach a template; a third run checks it against the upstream, and a fourth with new values is served whole', async () => {
  const first = await agent(proxy, ADA, { declare: false });
  const second = await agent(proxy, GRACE, { declare: false });
  expect([...first.caches, ...second.caches].every((cache) => cache === 'miss')).toBe(true);
  expect(upstream.requests).toHaveLength(12);
  // Learned once the model has written every value (its fifth answer: five turns), and the last
  // turn with the last answer stored, after the agent already has it.
  await expect.poll(() => log.filter((line) => line.startsWith('learned:'))).toEqual(['learned: 5 templates (requests of up to 10 messages) with 5 values', 'learned: 1 template (requests of up to 12 messages) with 5 values']);

  // Read by the templates, but forwarded: the upstream's answers must be the ones they would give.
  const third = await agent(proxy, CYD, { declare: false });
  expect(third.caches.every((cache) => cache === 'miss')).toBe(true);
  expect(upstream.requests).toHaveLength(18);
  await expect.poll(() => log.filter((line) => line.startsWith('check:')).length).toBe(6);
  expect(log.filter((line) => line.startsWith('check:')).every((line) => line.includes('it serves from now on'))).toBe(true);

  const fourth = await agent(proxy, DEE, { declare: false });
  expect(fourth.caches).toEqual(['hit', 'hit', 'hit', 'hit', 'hit', 'hit']);
  expect(upstream.requests).toHaveLength(18);
  expect(fourth.fills).toEqual(expectedFills(DEE));
  expect(fourth.text).toBe('Saved the record of Dee Dunmore in Hilo.');

  // A value the templates cannot read (a last name of two words where they learned one): forwarded, and right.
  const jo = await agent(proxy, JO, { declare: false });
  expect(jo.caches.every((cache) => cache === 'miss')).toBe(true);
  expect(jo.fills).toEqual(expectedFills(JO));
});

test('a learned template the upstream answers otherwise is never used: the model decided on a value the two runs only agreed on', async () => {
  // The model's last answer depends on the quantity, and the two teaching runs were both above the line.
  const deciding: typeof brain = (turn) => {
    const answer = brain(turn);
    const text = (answer as { message: { content?: string } }).message.content;
    return text ? { message: { content: `${text} Order class: ${Number(turn.params.qty) >= 200 ? 'priority' : 'standard'}.` } } : answer;
  };
  upstream.brain = deciding;
  await agent(proxy, ADA, { declare: false });
  await agent(proxy, GRACE, { declare: false });
  await expect.poll(() => log.filter((line) => line.startsWith('learned:')).length).toBe(2);
  const small = await agent(proxy, { ...CYD, qty: '150' }, { declare: false });
  expect(small.text).toBe('Saved the record of Cyd Charisse in Ely. Order class: standard.');
  await expect.poll(() => log.filter((line) => line.startsWith('check:')).length).toBe(6);
  expect(log.filter((line) => line.includes('it is never used'))).toHaveLength(1);
  // The five turns that agreed serve; the last one, refuted, goes upstream, and its answer is right.
  const again = await agent(proxy, { ...DEE, qty: '120' }, { declare: false });
  expect(again.caches).toEqual(['hit', 'hit', 'hit', 'hit', 'hit', 'miss']);
  expect(again.text).toBe('Saved the record of Dee Dunmore in Hilo. Order class: standard.');
});

test('a learned template is not used when it is off', async () => {
  const off = await startProxy({ upstream: new URL(upstream.baseURL), tree: new MemoryConversationTree(), learn: false, log: (line) => log.push(line) });
  try {
    await agent(off, ADA, { declare: false });
    await agent(off, GRACE, { declare: false });
    const third = await agent(off, CYD, { declare: false });
    expect(third.caches.every((cache) => cache === 'miss')).toBe(true);
    expect(log.some((line) => line.startsWith('learned:'))).toBe(false);
  } finally {
    await off.close();
  }
});

test('another API key has a tree of its own', async () => {
  await agent(proxy, ADA);
  const other = await agent(proxy, JO, { apiKey: 'sk-test-team-b' });
  expect(other.caches.every((cache) => cache === 'miss')).toBe(true);
});

test('a malformed body, an upstream that cannot be reached, and upstream errors give the documented answers, and nothing of them is kept', async () => {
  const post = (body: string, headers: Record<string, string> = {}) => fetch(`${proxy.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test-team-a', ...headers }, body });
  const malformed = await post('{"model": "gpt-4.1-mini", "messages": [');
  expect(malformed.status).toBe(400);
  expect(malformed.headers.get('x-should-retry')).toBe('false');
  expect(await malformed.json()).toEqual({ error: { message: expect.stringContaining('could not parse the JSON body'), type: 'invalid_request_error', param: null, code: null } });
  const noModel = await post('{"messages": [{"role": "user", "content": "hi"}]}');
  expect(await noModel.json()).toMatchObject({ error: { type: 'invalid_request_error', param: 'model', code: 'missing_required_parameter' } });
  const badParams = await post('{"model": "m", "messages": [{"role": "user", "content": "hi"}]}', { 'rote-params': '{"city": null}' });
  expect(badParams.status).toBe(400);
  expect(await badParams.json()).toMatchObject({ error: { param: 'Rote-Params', message: expect.stringContaining('"city" is null') } });

  const body = JSON.stringify({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'Register the patient.\n- first: "Ada"' }] });
  for (const status of [429, 500]) {
    upstream.queue({ http: status, body: { error: { message: `scripted ${status}`, type: status === 429 ? 'rate_limit_error' : 'server_error', param: null, code: null } } });
    const answer = await post(body);
    expect(answer.status).toBe(status);
    expect(answer.headers.get('rote-cache')).toBe('miss');
    expect(await answer.json()).toMatchObject({ error: { message: `scripted ${status}` } });
  }
  // Neither error was kept: the same request goes upstream again and is answered by the model.
  const answered = await post(body);
  expect(answered.headers.get('rote-cache')).toBe('miss');
  expect(upstream.requests).toHaveLength(3);
  expect((await post(body)).headers.get('rote-cache')).toBe('hit');

  const closed = await startProxy({ upstream: new URL('http://127.0.0.1:9/v1'), tree: new MemoryConversationTree() });
  const unreachable = await fetch(`${closed.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: 'Bearer sk-secret-never-shown' }, body });
  await closed.close();
  expect(unreachable.status).toBe(502);
  const error = (await unreachable.json()) as { error: { message: string; type: string } };
  expect(error.error.message).toContain('http://127.0.0.1:9');
  expect(error.error.message).not.toContain('sk-secret');
});

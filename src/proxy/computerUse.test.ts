import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryConversationTree } from './conversationTree.js';
import { startProxy, type RunningProxy } from './proxyServer.js';

/**
 * The computer-use proxy's turn flow against a bare upstream that answers what it is told and
 * keeps what it was asked: the cases a fresh-eyes review found (a batch with a safety check, two
 * requests for one call, a screenshot sent as the sample app sends it, a message beside it, a fork,
 * a null tool), each answered so that nothing is served or kept at the wrong point.
 */
type Json = Record<string, unknown>;
type Reply = { body: Json; delayMs?: number };
let upstream: Server | undefined;
let proxy: RunningProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  await new Promise((resolve) => (upstream ? upstream.close(() => resolve(undefined)) : resolve(undefined)));
});

async function start(replies: Reply[]) {
  const seen: Json[] = [];
  let count = 0;
  upstream = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    seen.push(JSON.parse(Buffer.concat(chunks).toString()) as Json);
    const reply = replies.shift();
    if (!reply) return void res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"no reply scripted","type":"server_error","param":null,"code":null}}');
    if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: `resp_up${++count}`, object: 'response', model: 'computer-use-preview', usage: { input_tokens: 1, output_tokens: 1 }, ...reply.body }));
  });
  await new Promise<void>((resolve) => upstream!.listen(0, '127.0.0.1', () => resolve()));
  const log: string[] = [];
  proxy = await startProxy({ upstream: new URL(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`), tree: new MemoryConversationTree(), log: (line) => log.push(line) });
  return { seen, log };
}

const call = (id: string, action: Json) => ({ output: [{ type: 'computer_call', id: `cu_${id}`, call_id: `call_${id}`, action, pending_safety_checks: [], status: 'completed' }] });
const done = { output: [{ type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Done', annotations: [] }] }] };
const tools = [{ type: 'computer_use_preview', display_width: 640, display_height: 400, environment: 'browser' }];
const task = { role: 'user', content: 'Fill in the form' };

async function post(body: Json): Promise<{ status: number; cache: string | null; json: any }> {
  const response = await fetch(`${proxy!.url}/v1/responses`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test' }, body: JSON.stringify({ model: 'computer-use-preview', tools, truncation: 'auto', ...body }) });
  return { status: response.status, cache: response.headers.get('rote-cache'), json: await response.json() };
}

/** A screenshot whose every region is its own, so no crop of it is a look-alike. */
async function gradient(): Promise<string> {
  const raw = Buffer.alloc(640 * 400 * 3);
  for (let y = 0; y < 400; y++) {
    for (let x = 0; x < 640; x++) {
      const at = (y * 640 + x) * 3;
      raw[at] = x & 0xff;
      raw[at + 1] = y & 0xff;
      raw[at + 2] = (x >> 8) * 60 + (y >> 8) * 120;
    }
  }
  return `data:image/png;base64,${(await sharp(raw, { raw: { width: 640, height: 400, channels: 3 } }).png().toBuffer()).toString('base64')}`;
}

const output = (callId: string, imageUrl: string, type = 'computer_screenshot') => ({ type: 'computer_call_output', call_id: callId, output: { type, image_url: imageUrl } });

describe('the computer-use proxy, turn by turn', () => {
  it('never serves a later action of a batch that came with a safety check', async () => {
    const batch = { output: [{ type: 'computer_call', id: 'cu_1', call_id: 'call_1', actions: [{ type: 'click', button: 'left', x: 100, y: 100 }, { type: 'click', button: 'left', x: 300, y: 300 }], pending_safety_checks: [{ id: 'cu_sc_1', code: 'sensitive_domain', message: 'Check' }], status: 'completed' }] };
    const again = { output: [{ type: 'computer_call', id: 'cu_2', call_id: 'call_2', actions: [{ type: 'click', button: 'left', x: 100, y: 100 }], pending_safety_checks: [{ id: 'cu_sc_2', code: 'sensitive_domain', message: 'Check' }], status: 'completed' }] };
    const batchTools = [{ type: 'computer' }];
    await start([{ body: batch }, { body: done }, { body: again }, { body: call('3', { type: 'click', button: 'left', x: 300, y: 300 }) }]);
    const image = await gradient();
    const r1 = await post({ tools: batchTools, input: [task] });
    const r2 = await post({ tools: batchTools, previous_response_id: r1.json.id, input: [{ ...output(r1.json.output[0].call_id, image), acknowledged_safety_checks: r1.json.output[0].pending_safety_checks }] });
    expect(r2.json.output[0].actions[0]).toMatchObject({ x: 300 });
    expect((await post({ tools: batchTools, previous_response_id: r2.json.id, input: [output(r2.json.output[0].call_id, image)] })).json.output[0].type).toBe('message');
    const s1 = await post({ tools: batchTools, input: [task] });
    const s2 = await post({ tools: batchTools, previous_response_id: s1.json.id, input: [{ ...output(s1.json.output[0].call_id, image), acknowledged_safety_checks: s1.json.output[0].pending_safety_checks }] });
    expect(s2.cache).toBe('miss');
    expect(s2.status).toBe(200);
  });

  it('answers one request per call: a second one for the same call while the first is answered is a 409, and nothing is kept twice', async () => {
    const { log } = await start([{ body: call('1', { type: 'click', button: 'left', x: 100, y: 100 }) }, { body: call('2', { type: 'click', button: 'left', x: 200, y: 200 }), delayMs: 200 }, { body: call('3', { type: 'click', button: 'left', x: 200, y: 200 }) }]);
    const first = await post({ input: [task] });
    const image = await gradient();
    const both = await Promise.all([post({ previous_response_id: first.json.id, input: [output(first.json.output[0].call_id, image)] }), new Promise((resolve) => setTimeout(resolve, 50)).then(() => post({ previous_response_id: first.json.id, input: [output(first.json.output[0].call_id, image)] }))]);
    expect(both.map((answer) => answer.status)).toEqual([200, 409]);
    expect(both[1].json.error.code).toBe('conflict');
    expect(log.filter((line) => line.includes('kept at action 2'))).toHaveLength(0);
    expect(log.filter((line) => line.includes('kept at action 1'))).toHaveLength(1);
  });

  it("reads a screenshot sent as OpenAI's sample app sends it (input_image, the URL inside), and passes it on where it was", async () => {
    const { seen } = await start([{ body: call('1', { type: 'click', button: 'left', x: 100, y: 100 }) }, { body: call('2', { type: 'click', button: 'left', x: 120, y: 100 }) }]);
    const first = await post({ input: [task] });
    const item = first.json.output[0];
    const image = await gradient();
    const second = await post({ input: [task, item, { type: 'computer_call_output', call_id: item.call_id, output: { type: 'input_image', image_url: image, current_url: 'http://127.0.0.1/form' } }] });
    expect(second.status).toBe(200);
    expect(seen[1]).toMatchObject({ previous_response_id: 'resp_up1', input: [{ type: 'computer_call_output', call_id: 'call_1', output: { image_url: image, current_url: 'http://127.0.0.1/form' } }] });
    expect(seen[1]!.input as Json[]).not.toContainEqual(expect.objectContaining({ current_url: expect.anything() }));
  });

  it('passes a screenshot it cannot read (a remote URL) on to the upstream as it came, and serves nothing on it', async () => {
    const { seen } = await start([{ body: call('1', { type: 'click', button: 'left', x: 100, y: 100 }) }, { body: call('2', { type: 'click', button: 'left', x: 100, y: 100 }) }]);
    const first = await post({ input: [task] });
    const second = await post({ previous_response_id: first.json.id, input: [output(first.json.output[0].call_id, 'https://example.com/shot.png')] });
    expect(second).toMatchObject({ status: 200, cache: 'miss' });
    expect(seen[1]).toMatchObject({ previous_response_id: 'resp_up1', input: [{ type: 'computer_call_output', call_id: 'call_1', output: { image_url: 'https://example.com/shot.png' } }] });
  });

  it('forwards what a client sends beside its screenshot (a user message), serving nothing on that turn', async () => {
    const { seen } = await start([{ body: call('1', { type: 'click', button: 'left', x: 100, y: 100 }) }, { body: call('2', { type: 'click', button: 'left', x: 100, y: 100 }) }]);
    const first = await post({ input: [task] });
    const second = await post({ previous_response_id: first.json.id, input: [output(first.json.output[0].call_id, await gradient()), { role: 'user', content: 'Stop: use the other account' }] });
    expect(second.cache).toBe('miss');
    expect(JSON.stringify(seen[1]!.input)).toContain('Stop: use the other account');
  });

  it('goes on only from the latest response of a task, and not at all once it has ended', async () => {
    const { seen } = await start([{ body: call('1', { type: 'click', button: 'left', x: 100, y: 100 }) }, { body: call('2', { type: 'click', button: 'left', x: 300, y: 300 }) }, { body: done }]);
    const image = await gradient();
    const r1 = await post({ input: [task] });
    const r2 = await post({ previous_response_id: r1.json.id, input: [output(r1.json.output[0].call_id, image)] });
    const fork = await post({ previous_response_id: r1.json.id, input: [output(r1.json.output[0].call_id, image)] });
    expect(fork).toMatchObject({ status: 400, json: { error: { code: 'previous_response_not_latest', param: 'previous_response_id' } } });
    await post({ previous_response_id: r2.json.id, input: [output(r2.json.output[0].call_id, image)] });
    const afterEnd = await post({ previous_response_id: r2.json.id, input: [output(r2.json.output[0].call_id, image)] });
    expect(afterEnd).toMatchObject({ status: 400, json: { error: { code: 'previous_response_not_latest' } } });
    expect(seen).toHaveLength(3);
  });

  it('reads past a null among the tools instead of failing with a 500', async () => {
    const { seen } = await start([{ body: call('1', { type: 'click', button: 'left', x: 100, y: 100 }) }]);
    const answer = await post({ tools: [null, ...tools], input: [task] });
    expect(answer.status).toBe(200);
    expect(seen).toHaveLength(1);
  });

  it('keeps and serves nothing of a task after a message beside its screenshot: another run without it is not served what it led to', async () => {
    const { log } = await start([
      { body: call('1', { type: 'click', button: 'left', x: 100, y: 100 }) },
      { body: call('2', { type: 'click', button: 'left', x: 300, y: 300 }) },
      { body: done },
      { body: call('3', { type: 'click', button: 'left', x: 100, y: 100 }) },
      { body: call('4', { type: 'click', button: 'left', x: 500, y: 300 }) },
    ]);
    const image = await gradient();
    const r1 = await post({ input: [task] });
    const r2 = await post({ previous_response_id: r1.json.id, input: [output(r1.json.output[0].call_id, image), { role: 'user', content: 'Stop: use the other account' }] });
    await post({ previous_response_id: r2.json.id, input: [output(r2.json.output[0].call_id, image)] });
    expect(log.filter((line) => line.includes('its steps are not kept'))).toHaveLength(1);
    const s1 = await post({ input: [task] });
    const s2 = await post({ previous_response_id: s1.json.id, input: [output(s1.json.output[0].call_id, image)] });
    expect(s2.cache).toBe('miss');
    expect(s2.json.output[0].action).toMatchObject({ x: 500 });
  });

  it('passes the acknowledgements on with a screenshot it cannot read', async () => {
    const checked = { output: [{ type: 'computer_call', id: 'cu_1', call_id: 'call_1', action: { type: 'click', button: 'left', x: 100, y: 100 }, pending_safety_checks: [{ id: 'cu_sc_up', code: 'sensitive_domain', message: 'Check' }], status: 'completed' }] };
    const { seen } = await start([{ body: checked }, { body: call('2', { type: 'click', button: 'left', x: 100, y: 100 }) }]);
    const first = await post({ input: [task] });
    const ours = first.json.output[0].pending_safety_checks[0].id as string;
    expect(ours).toMatch(/^cu_sc_rote/);
    await post({ previous_response_id: first.json.id, input: [{ ...output(first.json.output[0].call_id, 'https://example.com/shot.png'), acknowledged_safety_checks: [{ id: ours }] }] });
    expect(seen[1]).toMatchObject({ input: [{ call_id: 'call_1', acknowledged_safety_checks: [{ id: 'cu_sc_up' }] }] });
  });

  it('tells the model which actions of its batch were not done when the client sent new input in the middle of it', async () => {
    const batch = { output: [{ type: 'computer_call', id: 'cu_1', call_id: 'call_1', actions: [{ type: 'click', button: 'left', x: 100, y: 100 }, { type: 'click', button: 'left', x: 300, y: 300 }, { type: 'click', button: 'left', x: 500, y: 300 }], pending_safety_checks: [], status: 'completed' }] };
    const { seen } = await start([{ body: batch }, { body: call('2', { type: 'click', button: 'left', x: 100, y: 100 }) }]);
    const batchTools = [{ type: 'computer' }];
    const r1 = await post({ tools: batchTools, input: [task] });
    await post({ tools: batchTools, previous_response_id: r1.json.id, input: [output(r1.json.output[0].call_id, await gradient()), { role: 'user', content: 'Wait.' }] });
    expect(JSON.stringify(seen[1]!.input)).toContain('Of the 3 actions of your last call, only the first 1 were done before this message');
  });

  it('goes on upstream, from its final response, with a conversation sent whole again after its task ended', async () => {
    const { seen } = await start([{ body: call('1', { type: 'click', button: 'left', x: 100, y: 100 }) }, { body: done }, { body: done }]);
    const r1 = await post({ input: [task] });
    const history = [task, ...r1.json.output, output(r1.json.output[0].call_id, await gradient())];
    const r2 = await post({ input: history });
    expect(r2.json.output[0].type).toBe('message');
    const next = await post({ input: [...history, ...r2.json.output, { role: 'user', content: 'Now the next one.' }] });
    expect(next.status).toBe(200);
    expect(seen[2]).toMatchObject({ previous_response_id: 'resp_up2', input: [{ role: 'user', content: 'Now the next one.' }] });
  });
});

import { expect, test } from '@playwright/test';
import OpenAI from 'openai';
import { startFakeOpenAI, type FakeOpenAI } from './support/fakeOpenAI.js';

/**
 * The scripted upstream is as strict about Responses input as the real service, since the proxy
 * (issue 28) must never send it anything the real one would refuse: an item id it never gave, a
 * call without its output, an unacknowledged safety check, a reasoning item on its own, an unknown
 * previous response. Driven through the real openai client, in both client styles.
 */
const SCREENSHOT = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const TOOLS = [{ type: 'computer_use_preview' as const, display_width: 1280, display_height: 800, environment: 'browser' as const }];

let upstream: FakeOpenAI;
let client: OpenAI;
test.beforeEach(async () => {
  upstream = await startFakeOpenAI({ brain: ({ turn }) => (turn < 2 ? { actions: [{ type: 'click', button: 'left', x: 100 + turn, y: 200 }], intent: `Step ${turn}` } : { done: true, answer: 'Done.' }) });
  client = new OpenAI({ baseURL: upstream.baseURL, apiKey: 'sk-test', maxRetries: 0 });
});
test.afterEach(() => upstream.close());

const start = (): OpenAI.Responses.ResponseInput => [{ role: 'user', content: 'Fill the form.' }];
const outputOf = (call: OpenAI.Responses.ResponseComputerToolCall, acknowledged: { id: string }[] = []) => ({ type: 'computer_call_output' as const, call_id: call.call_id, output: { type: 'computer_screenshot' as const, image_url: SCREENSHOT }, acknowledged_safety_checks: acknowledged });
const callIn = (response: OpenAI.Responses.Response) => response.output.find((item): item is OpenAI.Responses.ResponseComputerToolCall => item.type === 'computer_call')!;

test('the whole conversation sent again continues it, echoing the items it gave', async () => {
  const first = await client.responses.create({ model: 'computer-use-preview', input: start(), tools: TOOLS, truncation: 'auto' });
  const second = await client.responses.create({ model: 'computer-use-preview', input: [...start(), ...(first.output as OpenAI.Responses.ResponseInputItem[]), outputOf(callIn(first))], tools: TOOLS, truncation: 'auto' });
  expect(callIn(second).action).toMatchObject({ type: 'click', x: 101 });
});

test('what the real service refuses in the input is refused the same way', async () => {
  const first = await client.responses.create({ model: 'computer-use-preview', input: start(), tools: TOOLS, truncation: 'auto' });
  const call = callIn(first);
  const [reasoning] = first.output;
  const send = (input: OpenAI.Responses.ResponseInputItem[]) => client.responses.create({ model: 'computer-use-preview', input, tools: TOOLS, truncation: 'auto' });

  // An id the upstream never gave (one a proxy minted for its own client): 404.
  await expect(send([...start(), reasoning as OpenAI.Responses.ResponseInputItem, { ...call, id: 'cu_rote_minted' }, outputOf(call)])).rejects.toMatchObject({ status: 404, error: { message: "Item with id 'cu_rote_minted' not found.", param: 'input' } });
  // A call with no output after it.
  await expect(send([...start(), reasoning as OpenAI.Responses.ResponseInputItem, call])).rejects.toMatchObject({ status: 400, error: { message: `No tool output found for computer call ${call.call_id}.` } });
  // A reasoning item without the item it led to.
  await expect(send([...start(), reasoning as OpenAI.Responses.ResponseInputItem])).rejects.toMatchObject({ status: 400, error: { message: expect.stringContaining("of type 'reasoning' was provided without its required following item") } });
  // An unknown previous response.
  await expect(client.responses.create({ model: 'computer-use-preview', previous_response_id: 'resp_rote_unknown', input: [outputOf(call)], tools: TOOLS, truncation: 'auto' })).rejects.toMatchObject({ status: 400, error: { code: 'previous_response_not_found', param: 'previous_response_id' } });
});

test('a pending safety check must be acknowledged in the whole conversation too', async () => {
  upstream.queue({ actions: [{ type: 'click', button: 'left', x: 5, y: 5 }], safetyChecks: [{ id: 'cu_sc_1', code: 'malicious_instructions', message: 'Check the page.' }] });
  const first = await client.responses.create({ model: 'computer-use-preview', input: start(), tools: TOOLS, truncation: 'auto' });
  const call = callIn(first);
  const history = [...start(), ...(first.output as OpenAI.Responses.ResponseInputItem[])];
  await expect(client.responses.create({ model: 'computer-use-preview', input: [...history, outputOf(call)], tools: TOOLS, truncation: 'auto' })).rejects.toMatchObject({ status: 400, error: { message: 'Safety check cu_sc_1 was not acknowledged.' } });
  const acknowledged = await client.responses.create({ model: 'computer-use-preview', input: [...history, outputOf(call, [{ id: 'cu_sc_1' }])], tools: TOOLS, truncation: 'auto' });
  expect(acknowledged.status).toBe('completed');
});

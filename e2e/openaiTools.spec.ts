/**
 * Custom tools offered to the OpenAI agents as function tools, over the wire to the fake server
 * through the real `openai` client: the model's function call becomes a recorded tool step, its
 * result goes back as the call's output on the next request, and the replay needs no model.
 */
import { chatCompletionsAgent } from '../src/agent/openai/chatAgent.js';
import { openaiComputerAgent } from '../src/agent/openai/computerAgent.js';
import { expect } from './fixtures.js';
import { BANK_TASK, PAY, bankTest, fillPayment } from './support/bankApp.js';
import { requestTimeline, startFakeOpenAI, type FakeOpenAI, type FakeTurn } from './support/fakeOpenAI.js';

const KEY = 'sk-rote-tools-test-5e0c1b7a93d2';
const DESCRIPTION = 'Fills the payment form from the payments API';

const test = bankTest.extend<{ fake: FakeOpenAI }>({
  fake: async ({}, use, testInfo) => {
    const fake = await startFakeOpenAI({ apiKey: KEY });
    await use(fake);
    await fake.close();
    if (testInfo.status !== testInfo.expectedStatus) await testInfo.attach('model requests', { body: requestTimeline(fake), contentType: 'text/plain' });
  },
});

type Body = Record<string, unknown>;

/** Calls the tool, then clicks Pay, then says it is done. */
function payBrain(turn: FakeTurn) {
  // Chat requests resend the whole conversation (its first message changes as screenshots are dropped): count the answers in it.
  const step = turn.api === 'chat' ? (turn.body.messages as Body[]).filter((message) => message.role === 'assistant').length : turn.turn;
  if (step === 0) return { intent: 'Fill the payment from the API', actions: [{ type: 'tool', name: 'fillPayment', args: { amount: turn.params.amount } }] };
  if (step === 1) return { intent: 'Pay', actions: [{ type: 'click', x: PAY.x + 110, y: PAY.y + 15 }] };
  return { done: true as const, answer: 'Paid.' };
}

test('the computer-use agent calls a registered tool as a function; its result goes back as the call output', async ({ bank, rote, openAccount, fake }) => {
  const calls: Record<string, unknown>[] = [];
  rote.tool('fillPayment', fillPayment(calls), { description: DESCRIPTION });
  fake.brain = payBrain;
  const agent = openaiComputerAgent({ model: 'computer-use-preview', apiKey: KEY, baseURL: fake.baseURL });
  const result = await rote.run(await openAccount(), { task: BANK_TASK, params: { amount: '250' }, agent });
  expect(result.status).toBe('agent');
  expect(result.steps.map((step) => step.action.type)).toEqual(['tool', 'click']);
  expect(calls).toEqual([{ amount: '250' }]);
  expect(bank.payments).toEqual([{ amount: '250', pin: '' }]);

  const [opening, second] = fake.requests.map((request) => request.body) as [Body, Body];
  expect(opening.tools).toEqual([
    expect.objectContaining({ type: 'computer_use_preview' }),
    { type: 'function', name: 'fillPayment', description: DESCRIPTION, parameters: { type: 'object', additionalProperties: true }, strict: false },
  ]);
  const input = second.input as Body[];
  const callOutput = input.find((item) => item.type === 'function_call_output')!;
  expect(callOutput).toMatchObject({ output: '{"balance":1200}' });
  expect(second.previous_response_id).toEqual(expect.any(String));
  // No computer call was pending, so the new screen comes as a user message.
  expect(input.some((item) => item.role === 'user' && JSON.stringify(item.content).includes('input_image'))).toBe(true);

  const requests = fake.requests.length;
  const replayed = await rote.run(await openAccount(), { task: BANK_TASK, params: { amount: '400' }, agent });
  expect(replayed.status).toBe('replayed');
  expect(fake.requests.length).toBe(requests);
  expect(calls.at(-1)).toEqual({ amount: '400' });
  expect(bank.payments.at(-1)).toEqual({ amount: '400', pin: '' });
});

test('the chat-completions agent offers a registered tool as a function and answers the call with its result', async ({ bank, rote, openAccount, fake }) => {
  const calls: Record<string, unknown>[] = [];
  rote.tool('fillPayment', fillPayment(calls), { description: DESCRIPTION });
  fake.brain = payBrain;
  const agent = chatCompletionsAgent({ model: 'qwen2.5-vl', apiKey: KEY, baseURL: fake.baseURL });
  const result = await rote.run(await openAccount(), { task: BANK_TASK, params: { amount: '250' }, agent });
  expect(result.status).toBe('agent');
  expect(calls).toEqual([{ amount: '250' }]);
  expect(bank.payments).toEqual([{ amount: '250', pin: '' }]);

  const opening = fake.requests[0]!.body;
  const tools = opening.tools as { function: { name: string } }[];
  expect(tools.map((tool) => tool.function.name)).toContain('fillPayment');
  expect(tools.map((tool) => tool.function.name)).not.toContain('tool');
  expect(tools.find((tool) => tool.function.name === 'fillPayment')).toEqual({
    type: 'function',
    function: { name: 'fillPayment', description: DESCRIPTION, parameters: { type: 'object', additionalProperties: true } },
  });
  const messages = fake.requests[1]!.body.messages as Body[];
  const toolCallId = ((messages.find((message) => message.role === 'assistant')!.tool_calls as Body[])[0]!).id;
  expect(messages.find((message) => message.role === 'tool')).toMatchObject({ tool_call_id: toolCallId, content: '{"balance":1200}' });
});

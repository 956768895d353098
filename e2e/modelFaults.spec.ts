import { openaiComputerAgent } from '../src/agent/openai/computerAgent.js';
import { scriptedAgent } from '../src/agent/scriptedAgent.js';
import { submissionProblems } from '../src/demo/patients.js';
import { DEMO_PATIENTS, INTAKE_TASK, expect } from './fixtures.js';
import { domBrain } from './support/domBrain.js';
import type { FakeOpenAI } from './support/fakeOpenAI.js';
import { testWithFakeModel } from './support/fakeModelTest.js';

/** Faults of the model service the fault suite found handled badly, each fixed; these fail without the fix. */

const KEY = 'sk-model-faults';
const test = testWithFakeModel(KEY);
const first = DEMO_PATIENTS[0]!;
const agentOf = (fake: FakeOpenAI) => openaiComputerAgent({ model: 'computer-use-preview', apiKey: KEY, baseURL: fake.baseURL, timeoutMs: 2_000, maxRetries: 2 });

test('an answer cut short (JSON that ends mid-way, a connection dropped mid-body) is asked for again, like a 5xx', async ({ app, rote, openForm, fake }) => {
  const page = await openForm();
  fake.brain = domBrain(page);
  fake.queue(
    { http: 200, rawBody: '{"id":"resp_cut","object":"response","output":[{"type":"computer_call"' },
    { http: 200, body: { id: 'resp_cut', object: 'response', output: [] }, cutAfter: 12 },
  );
  const result = await rote.run(page, { task: INTAKE_TASK, params: first, agent: agentOf(fake) });
  expect(result.status, result.error).toBe('agent');
  expect(submissionProblems(first, app.submissions[0])).toEqual([]);
  // Both broken answers were model calls: the run's usage counts them.
  expect(fake.requests.length).toBe(result.usage.modelCalls);

  // Broken every time: a clear failure after the retries, naming what came back.
  const again = await openForm();
  fake.queue(...[1, 2, 3].map(() => ({ http: 200, rawBody: '{"id":"resp_cut","output":[' })));
  const failed = await rote.run(again, { task: 'Register patient {{firstName}} again', params: { firstName: 'Ada' }, agent: agentOf(fake) });
  expect(failed.status).toBe('failed');
  expect(failed.error).toContain('openaiComputerAgent: the answer to responses.create came broken (its JSON was cut short');
  expect(failed.error).toContain('(3 attempts)');
});

test('a point off the screen is never acted on: the model is told once, then the run fails; any other agent fails at once', async ({ app, rote, openForm, fake }) => {
  const page = await openForm();
  fake.queue(...[1, 2].map(() => ({ actions: [{ type: 'click', x: 4000, y: 3000, button: 'left' }], intent: 'Click far away' })));
  const clicks: string[] = [];
  await page.exposeFunction('noteClick', (where: string) => clicks.push(where));
  await page.evaluate(() => document.addEventListener('click', (event) => (window as unknown as { noteClick: (w: string) => void }).noteClick(`${event.clientX},${event.clientY}`), true));
  const model = await rote.run(page, { task: INTAKE_TASK, params: first, agent: agentOf(fake) });
  expect(model.status).toBe('failed');
  expect(model.error).toContain('the click at (4000, 3000) is outside the 1280x800 screen');
  expect(fake.requests).toHaveLength(2);

  const scripted = await rote.run(page, { task: INTAKE_TASK, params: first, agent: scriptedAgent([{ actions: [{ type: 'click', x: 640, y: 5000 }] }]), mode: 'record' });
  expect(scripted.status).toBe('failed');
  expect(scripted.error).toContain("the agent's step 1 was not done: the click at (640, 5000) is outside the 1280x800 screen");
  expect(clicks).toEqual([]);
  expect(app.submissions).toHaveLength(0);
});

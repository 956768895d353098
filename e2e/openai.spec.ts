/**
 * The OpenAI agents against a local server that speaks the OpenAI wire format, through the real
 * `openai` client. The fake model decides from the demo app's DOM (or plans from the prompt);
 * every decision reaches rote over HTTP.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { chatCompletionsAgent } from '../src/agent/openai/chatAgent.js';
import { openaiComputerAgent } from '../src/agent/openai/computerAgent.js';
import type { OpenAIComputerAgentOptions } from '../src/agent/openai/agentOptions.js';
import { pngSize } from '../src/agent/openai/computerActions.js';
import type { SafetyCheck } from '../src/agent/openai/modelTypes.js';
import { submissionProblems } from '../src/demo/patients.js';
import type { RunOptions } from '../src/engine/runOptions.js';
import type { RunResult } from '../src/engine/runResult.js';
import { Rote } from '../src/rote.js';
import { DEMO_PATIENTS, INTAKE_TASK, expect } from './fixtures.js';
import { domBrain } from './support/domBrain.js';
import { apiError, textOf, type FakeOpenAI, type FakeSafetyCheck } from './support/fakeOpenAI.js';
import { testWithFakeModel } from './support/fakeModelTest.js';
import { secret as secretParam } from '../src/params/secret.js';

const KEY = 'sk-rote-test-7d41c9e2b8a6f3051e9d';
const [first, second] = DEMO_PATIENTS as [(typeof DEMO_PATIENTS)[0], (typeof DEMO_PATIENTS)[1]];

const test = testWithFakeModel(KEY);


function computerAgent(fake: FakeOpenAI, options: Partial<OpenAIComputerAgentOptions> = {}) {
  return openaiComputerAgent({ model: 'computer-use-preview', apiKey: KEY, baseURL: fake.baseURL, ...options });
}

type Body = Record<string, unknown>;
const inputOf = (body: Body) => (body.input ?? []) as Body[];
const userTexts = (body: Body) => inputOf(body).filter((item) => item.role === 'user').map((item) => textOf(item.content));
const imagesOf = (content: unknown) => ((Array.isArray(content) ? content : []) as Body[]).filter((part) => part.type === 'input_image' || part.type === 'image_url');

/** Shows the session-expiry popup once the date of birth is being typed: the page changes in the middle of a replay. */
async function popupWhileTypingDob(page: Page): Promise<void> {
  await page.evaluate(() => {
    const show = () => {
      if (document.getElementById('session-popup')) return;
      document.body.insertAdjacentHTML(
        'beforeend',
        '<div id="session-popup" style="position: fixed; inset: 0; background: rgba(0, 0, 0, 0.45); z-index: 1000;"><div role="dialog" aria-modal="true" aria-labelledby="popup-title" style="position: absolute; left: 50%; top: 180px; width: 360px; margin-left: -181px; background: #fff; border: 1px solid #333;"><div id="popup-title" style="background: #1f3f73; color: #fff; padding: 6px 10px;">Your session is about to expire</div><div style="padding: 12px; text-align: right;"><button type="button" id="stay-signed-in" onclick="document.getElementById(\'session-popup\').remove()">Stay signed in</button></div></div></div>',
      );
    };
    const dob = document.getElementById('dob')!;
    dob.addEventListener('input', show, { once: true });
    dob.addEventListener('change', show, { once: true });
  });
}

test('a miss is solved by the model over the wire and recorded; the replay with new values makes no model call', async ({ app, rote, openForm, fake }) => {
  const page = await openForm();
  fake.brain = domBrain(page, { lookFirst: true });
  const result = await rote.run(page, { task: INTAKE_TASK, params: first, agent: computerAgent(fake) });

  expect(result.status, result.error).toBe('agent');
  expect(submissionProblems(first, app.submissions[0])).toEqual([]);
  expect(result.steps.every((step) => step.kind === 'agent')).toBe(true);
  // The reasoning summaries are the intents of the steps they produced.
  expect(result.steps[0]).toMatchObject({ action: { type: 'click' }, intent: 'Fill "First name"' });
  expect(result.steps.at(-1)).toMatchObject({ action: { type: 'click' }, intent: 'Submit the form' });
  // One action per computer call, plus the first look and the final answer: every request counted.
  expect(fake.requests.every((request) => request.status === 200)).toBe(true);
  expect(result.usage).toEqual({ modelCalls: fake.requests.length, inputTokens: 1200 * fake.requests.length, outputTokens: 40 * fake.requests.length });
  expect(result.agentCalls).toBe(fake.requests.length - 1);
  expect(await rote.store.children(result.taskKey, null)).toHaveLength(1);

  const [opening, look] = fake.requests as [(typeof fake.requests)[0], (typeof fake.requests)[0]];
  expect(opening.headers.authorization).toBe(`Bearer ${KEY}`);
  expect(opening.body).toMatchObject({
    model: 'computer-use-preview',
    tools: [{ type: 'computer_use_preview', display_width: 1280, display_height: 800, environment: 'browser' }],
    truncation: 'auto',
    reasoning: { summary: 'concise' },
  });
  expect(opening.body.previous_response_id).toBeUndefined();
  expect(userTexts(opening.body)[0]).toContain('- firstName: "Ada"');
  expect(look.body.previous_response_id).toMatch(/^resp_/);
  const output = inputOf(look.body)[0]!;
  expect(output).toMatchObject({ type: 'computer_call_output', output: { type: 'computer_screenshot', current_url: app.url } });
  expect(String((output.output as Body).image_url)).toMatch(/^data:image\/png;base64,/);

  app.reset();
  const before = fake.requests.length;
  const replayPage = await openForm();
  fake.brain = domBrain(replayPage);
  const replay = await rote.run(replayPage, { task: INTAKE_TASK, params: second, agent: computerAgent(fake) });
  expect(replay.status).toBe('replayed');
  expect(fake.requests.length).toBe(before);
  expect(replay.usage).toEqual({ modelCalls: 0, inputTokens: 0, outputTokens: 0 });
  expect(submissionProblems(second, app.submissions[0])).toEqual([]);
});

test('a takeover in the middle sends the task, the parameters, the steps done with their intents and why the step diverged', async ({ app, rote, openForm, fake }) => {
  const recordPage = await openForm();
  fake.brain = domBrain(recordPage);
  const recorded = await rote.run(recordPage, { task: INTAKE_TASK, params: first, agent: computerAgent(fake) });
  expect(recorded.status).toBe('agent');
  app.reset();

  const page = await openForm();
  await popupWhileTypingDob(page);
  fake.brain = domBrain(page);
  const before = fake.requests.length;
  const result = await rote.run(page, { task: INTAKE_TASK, params: second, agent: computerAgent(fake) });

  expect(result.status).toBe('mixed');
  expect(result.agentCalls).toBe(1);
  expect(submissionProblems(second, app.submissions[0])).toEqual([]);
  const divergence = result.divergences[0]!;
  expect(divergence.step).toBeGreaterThan(3);
  const takeover = fake.requests[before]!.body;
  expect(fake.requests.length).toBe(before + 1);
  expect(takeover.previous_response_id).toBeUndefined();
  const [prompt] = userTexts(takeover) as [string];
  expect(prompt).toContain(`Task: ${INTAKE_TASK}`);
  for (const [name, value] of Object.entries(second)) expect(prompt).toContain(`- ${name}: ${JSON.stringify(String(value))}`);
  expect(prompt).toContain(`Steps already done in this run (${divergence.step})`);
  expect(prompt).toContain('replayed: Fill "First name"');
  expect(prompt).toContain('replayed: Fill "Date of birth"');
  expect(prompt).toContain(`{"type":"type","text":"${second.dob}"}`);
  expect(prompt).toContain(`step ${divergence.step + 1} (expected: "${divergence.intent}")`);
  expect(prompt).toContain(divergence.reason);
  expect(prompt).toContain('Finish the task from the current screen');
  const [image] = imagesOf(inputOf(takeover)[0]!.content);
  const png = Buffer.from(String(image!.image_url).replace(/^data:image\/png;base64,/, ''), 'base64');
  expect(pngSize(png)).toEqual({ width: 1280, height: 800 });
  // The model's reasoning summary is the intent of the step it took.
  expect(result.steps[divergence.step]).toMatchObject({ kind: 'agent', intent: 'Dismiss the "Your session is about to expire" popup' });
});

test('a 429 is retried after its Retry-After, and both requests count as model calls', async ({ app, rote, openForm, fake }) => {
  const page = await openForm();
  fake.brain = domBrain(page);
  fake.queue({ http: 429, headers: { 'retry-after': '1' }, body: apiError('Rate limit reached for requests', 'requests', 'rate_limit_exceeded') });
  const result = await rote.run(page, { task: INTAKE_TASK, params: first, agent: computerAgent(fake) });

  expect(result.status).toBe('agent');
  expect(submissionProblems(first, app.submissions[0])).toEqual([]);
  const [limited, retried] = fake.requests as [(typeof fake.requests)[0], (typeof fake.requests)[0]];
  expect([limited.status, retried.status]).toEqual([429, 200]);
  // The SDK's own backoff would wait at most 0.5 s; Retry-After: 1 is honoured.
  expect(retried.at - limited.at).toBeGreaterThanOrEqual(950);
  expect(retried.body).toEqual(limited.body);
  expect(result.usage.modelCalls).toBe(fake.requests.length);
  expect(result.usage.inputTokens).toBe(1200 * (fake.requests.length - 1));
});

test('the run record stores the model calls and tokens of the run', async ({ rote, openForm, fake }) => {
  const page = await openForm();
  fake.brain = domBrain(page);
  fake.queue({ http: 429, headers: { 'retry-after-ms': '10' } });
  const result = await rote.run(page, { task: INTAKE_TASK, params: first, agent: computerAgent(fake) });
  expect(result.usage.modelCalls).toBe(fake.requests.length);
  expect((await rote.store.listRuns(1))[0]).toMatchObject({ status: 'agent', ...result.usage });
});

test('repeated 500s and a request timeout end the run as failed, with a clear message', async ({ app, rote, openForm, fake }) => {
  fake.queue(...Array.from({ length: 3 }, () => ({ http: 500, body: apiError('The server had an error while processing your request.', 'server_error') })));
  const agent = computerAgent(fake);
  const result = await rote.run(await openForm(), { task: INTAKE_TASK, params: first, agent });

  expect(result.status).toBe('failed');
  expect(result.error).toContain(`rote.run("${INTAKE_TASK}"): openaiComputerAgent: the model service answered 500 to responses.create: The server had an error while processing your request. (3 attempts)`);
  expect(fake.requests.map((request) => request.status)).toEqual([500, 500, 500]);
  // Exponential backoff between the attempts: about 0.5 s, then about 1 s.
  const [a, b, c] = fake.requests.map((request) => request.at) as [number, number, number];
  expect(b - a).toBeGreaterThanOrEqual(350);
  expect(c - b).toBeGreaterThanOrEqual(700);
  expect(agent.usage.modelCalls).toBe(3);
  // The failed call's requests count in the run's usage and its record too.
  expect(result.usage.modelCalls).toBe(3);
  expect((await rote.store.listRuns(1))[0]).toMatchObject({ status: 'failed', agentSteps: 0, modelCalls: 3 });
  expect(await rote.store.children(result.taskKey, null)).toHaveLength(0);
  expect(app.submissions).toHaveLength(0);

  fake.queue({ http: 200, delayMs: 3_000 });
  const slow = await rote.run(await openForm(), { task: INTAKE_TASK, params: first, agent: computerAgent(fake, { timeoutMs: 300, maxRetries: 0 }) });
  expect(slow.status).toBe('failed');
  expect(slow.error).toContain('openaiComputerAgent: the responses.create request timed out after 300 ms (1 attempt)');

  // The run's deadline bounds the request too: the observation carries it, and the agent's own
  // 60 s request timeout does not keep the run waiting past it.
  // 5 s, so the first observation is taken well before the deadline on a busy machine too.
  fake.queue({ http: 200, delayMs: 10_000 });
  const late = await rote.run(await openForm(), { task: INTAKE_TASK, params: first, agent: computerAgent(fake, { maxRetries: 0 }), timeout: 5_000 });
  expect(late.status).toBe('failed');
  const bound = Number(/responses\.create request timed out after (\d+) ms/.exec(late.error ?? '')?.[1]);
  expect(late.error).toContain('responses.create request timed out after');
  expect(bound).toBeLessThanOrEqual(5_000);
});

test('the token and model-call budgets of a run stop it before the next request', async ({ rote, openForm, fake }) => {
  let page = await openForm();
  fake.brain = domBrain(page);
  const tokens = await rote.run(page, { task: INTAKE_TASK, params: first, agent: computerAgent(fake, { maxTokens: 2_000 }) });
  expect(tokens.status).toBe('failed');
  expect(tokens.error).toContain('openaiComputerAgent: the budget of 2000 tokens for this run is spent (2480 used)');
  expect(tokens.usage).toEqual({ modelCalls: 2, inputTokens: 2400, outputTokens: 80 });

  page = await openForm();
  fake.brain = domBrain(page);
  const before = fake.requests.length;
  const calls = await rote.run(page, { task: INTAKE_TASK, params: first, agent: computerAgent(fake, { maxModelCalls: 3 }) });
  expect(calls.status).toBe('failed');
  expect(calls.error).toContain('openaiComputerAgent: the budget of 3 model calls for this run is spent');
  expect(fake.requests.length - before).toBe(3);
});

test('a malformed action, a refusal and an empty answer are fed back once, then fail the run with the model\'s words', async ({ app, rote, openForm, fake }) => {
  let teleports = 0;
  const teleport = (text: string) => ({
    output: [
      { type: 'message', id: 'msg_1', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }] },
      { type: 'computer_call', id: 'cu_1', call_id: `call_teleport_${teleports++}`, action: { type: 'teleport', to: 'Save' }, pending_safety_checks: [], status: 'completed' },
    ],
  });
  fake.brain = () => teleport('I will teleport to the Save button.');
  const malformed = await rote.run(await openForm(), { task: INTAKE_TASK, params: first, agent: computerAgent(fake) });
  expect(malformed.status).toBe('failed');
  expect(malformed.error).toContain('openaiComputerAgent: the model answered with an action rote cannot perform: unknown action type "teleport"');
  expect(malformed.error).toContain('the model said: "I will teleport to the Save button."');
  expect(fake.requests).toHaveLength(2);
  const complaint = fake.requests[1]!.body;
  expect(inputOf(complaint)[0]).toMatchObject({ type: 'computer_call_output', call_id: 'call_teleport_0' });
  expect(userTexts(complaint)[0]).toMatch(/^Error: the model answered with an action rote cannot perform: unknown action type "teleport"/);

  const refusal = { output: [{ type: 'message', id: 'msg_2', status: 'completed', role: 'assistant', content: [{ type: 'refusal', refusal: 'I cannot help with entering medical records.' }] }] };
  fake.brain = () => refusal;
  const refused = await rote.run(await openForm(), { task: INTAKE_TASK, params: first, agent: computerAgent(fake) });
  expect(refused.status).toBe('failed');
  expect(refused.error).toContain('openaiComputerAgent: the model refused: "I cannot help with entering medical records."');
  expect(userTexts(fake.requests[3]!.body)[0]).toContain('Error: the model refused');

  // Once is forgiven: an empty answer, then a malformed one in the next turn, then the work.
  const page = await openForm();
  const dom = domBrain(page);
  let asked = 0;
  // The brain is asked again once the type that followed the first click was served.
  fake.brain = (turn) => (++asked === 1 ? { output: [] } : asked === 3 ? teleport('Teleporting.') : dom(turn));
  const before = fake.requests.length;
  const recovered = await rote.run(page, { task: INTAKE_TASK, params: first, agent: computerAgent(fake) });
  expect(recovered.status).toBe('agent');
  expect(submissionProblems(first, app.submissions[0])).toEqual([]);
  const complaints = fake.requests.slice(before).flatMap((request) => userTexts(request.body)).filter((text) => text.startsWith('Error:'));
  expect(complaints).toEqual([
    'Error: the model gave an empty answer: no action and no message. Nothing was done. Look at the current screen and answer again.',
    expect.stringContaining('Error: the model answered with an action rote cannot perform: unknown action type "teleport"'),
  ]);
});

test('a pending safety check fails closed, and is acknowledged on the wire when the handler allows it', async ({ app, rote, openForm, fake }) => {
  const check: FakeSafetyCheck = { id: 'cu_sc_0001', code: 'malicious_instructions', message: 'The page may contain instructions aimed at the model.' };
  const guarded = (page: Page) => {
    const dom = domBrain(page);
    return async (turn: Parameters<typeof dom>[0]) => {
      const decision = await dom(turn);
      return turn.turn === 0 && 'actions' in decision ? { ...decision, safetyChecks: [check] } : decision;
    };
  };

  let page = await openForm();
  fake.brain = guarded(page);
  const closed = await rote.run(page, { task: INTAKE_TASK, params: first, agent: computerAgent(fake) });
  expect(closed.status).toBe('failed');
  expect(closed.error).toContain('openaiComputerAgent: the model service raised a safety check malicious_instructions ("The page may contain instructions aimed at the model.") before the next action; the run stops because no onSafetyCheck handler acknowledged it');
  expect(closed.steps).toHaveLength(0);
  expect(fake.requests).toHaveLength(1);

  page = await openForm();
  fake.brain = guarded(page);
  const declined = await rote.run(page, { task: INTAKE_TASK, params: first, agent: computerAgent(fake, { onSafetyCheck: () => false }) });
  expect(declined.status).toBe('failed');
  expect(declined.error).toContain('was not acknowledged by onSafetyCheck; the run stops before the action');
  expect(declined.steps).toHaveLength(0);

  page = await openForm();
  fake.brain = guarded(page);
  const seen: SafetyCheck[] = [];
  const before = fake.requests.length;
  const allowed = await rote.run(page, { task: INTAKE_TASK, params: first, agent: computerAgent(fake, { onSafetyCheck: (raised) => seen.push(raised) > 0 }) });
  expect(allowed.status).toBe('agent');
  expect(submissionProblems(first, app.submissions[0])).toEqual([]);
  expect(seen).toEqual([check]);
  expect(inputOf(fake.requests[before + 1]!.body)[0]).toMatchObject({ type: 'computer_call_output', acknowledged_safety_checks: [check] });
  // The fake rejects an unacknowledged check, as the service would: every request went through.
  expect(fake.requests.slice(before).every((request) => request.status === 200)).toBe(true);
});

test('the newer computer tool sends a batch of actions per call and gets one screenshot per batch', async ({ app, rote, openForm, fake }) => {
  const page = await openForm();
  fake.brain = domBrain(page);
  const result = await rote.run(page, { task: INTAKE_TASK, params: first, agent: computerAgent(fake, { model: 'gpt-5.4' }) });

  expect(result.status).toBe('agent');
  expect(submissionProblems(first, app.submissions[0])).toEqual([]);
  expect(fake.requests[0]!.body).toMatchObject({ model: 'gpt-5.4', tools: [{ type: 'computer' }], truncation: 'auto', reasoning: { summary: 'auto' } });
  // Fewer calls than steps: a field's click and typing come in one batch.
  expect(result.agentCalls).toBe(fake.requests.length);
  expect(result.steps.length).toBeGreaterThan(result.agentCalls);
  for (const request of fake.requests.slice(1)) {
    const outputs = inputOf(request.body).filter((item) => item.type === 'computer_call_output');
    expect(outputs).toHaveLength(1);
  }
  const batches = result.steps.filter((step) => step.intent === 'Fill "First name"');
  expect(batches.map((step) => step.action.type)).toEqual(['click', 'type']);
});

test('the chat completions agent acts through function tools with the screenshot as an image input', async ({ app, rote, openForm, fake }) => {
  const page = await openForm();
  fake.brain = domBrain(page);
  const agent = chatCompletionsAgent({ model: 'qwen2.5-vl-7b', baseURL: fake.baseURL, apiKey: KEY });
  const result = await rote.run(page, { task: INTAKE_TASK, params: first, agent });

  expect(result.status).toBe('agent');
  expect(submissionProblems(first, app.submissions[0])).toEqual([]);
  expect(result.steps[0]).toMatchObject({ intent: 'Fill "First name"' });
  expect(result.usage.modelCalls).toBe(fake.requests.length);
  expect(fake.requests.every((request) => request.path === '/v1/chat/completions' && request.status === 200)).toBe(true);
  const opening = fake.requests[0]!.body;
  const tools = (opening.tools as { type: string; function: { name: string; parameters: Body } }[]);
  expect(tools.map((tool) => tool.function.name)).toEqual(['click', 'double_click', 'type', 'keypress', 'scroll', 'drag', 'move', 'wait', 'goto', 'done']);
  expect(tools[0]!.function.parameters).toMatchObject({ type: 'object', required: ['x', 'y'] });
  const messages = opening.messages as Body[];
  expect(messages.map((message) => message.role)).toEqual(['system', 'user']);
  expect(imagesOf(messages[1]!.content)).toHaveLength(1);
  // Later: each tool call answered, and only the newest screenshot kept.
  const last = fake.requests.at(-1)!.body.messages as Body[];
  expect(last.filter((message) => message.role === 'tool').length).toBe(result.steps.length);
  expect(last.flatMap((message) => imagesOf(message.content))).toHaveLength(1);
  expect(imagesOf(last.at(-1)!.content)).toHaveLength(1);
});

test('the API key and a secret parameter appear nowhere in the store, the console output or the errors', async ({ app, openForm, fake, output }) => {
  const secret = 'tok_live_5f3a9c1e7b2d4a60';
  const dir = mkdtempSync(join(tmpdir(), 'rote-openai-'));
  const rote = await Rote.open({ store: join(dir, 'rote.db') });
  output.start();
  // A secret parameter: the store keeps a run's values for its report, a secret's only as the mask.
  const params = { ...first, accessToken: secretParam(secret) };
  const options: Omit<RunOptions, 'agent'> = { task: INTAKE_TASK, params };
  let ok: RunResult | undefined;
  let failed: RunResult | undefined;
  try {
    const page = await openForm();
    fake.brain = domBrain(page);
    ok = await rote.run(page, { ...options, agent: computerAgent(fake) });
    // A server that echoes the key back in its error.
    fake.queue({ http: 401, body: apiError(`Incorrect API key provided: ${KEY}. You can find your API key at https://platform.openai.com/account/api-keys.`, 'invalid_request_error', 'invalid_api_key') });
    failed = await rote.run(await openForm(), { ...options, mode: 'record', agent: computerAgent(fake) });
  } finally {
    output.stop();
    await rote.close();
  }
  if (!ok || !failed) throw new Error('the runs did not finish');
  expect(ok.status).toBe('agent');
  expect(submissionProblems(first, app.submissions[0])).toEqual([]);
  expect(failed.status).toBe('failed');
  expect(failed.error).toContain('openaiComputerAgent: the model service answered 401 to responses.create: Incorrect API key provided: [api key].');
  expect(failed.error).toContain('check the API key');
  expect(fake.requests.every((request) => request.headers.authorization === `Bearer ${KEY}`)).toBe(true);

  const files = readdirSync(dir);
  expect(files.length).toBeGreaterThan(0);
  for (const file of files) {
    const bytes = readFileSync(join(dir, file));
    expect(bytes.includes(KEY), `${file} holds the API key`).toBe(false);
    expect(bytes.includes(secret), `${file} holds the secret`).toBe(false);
  }
  for (const text of [output.text.join(''), ok.error ?? '', failed.error ?? '', JSON.stringify(ok), JSON.stringify(failed)]) {
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(secret);
  }
});

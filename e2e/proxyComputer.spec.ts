import { expect, test } from '@playwright/test';
import OpenAI from 'openai';
import { MemoryConversationTree } from '../src/proxy/conversationTree.js';
import { startProxy, type RunningProxy } from '../src/proxy/proxyServer.js';
import { computerUseLoop, DISPLAY, type ClientStyle, type LoopOptions, type ToolForm } from './support/computerUseLoop.js';
import { formBrain, startFormSite, taskOf, type ClientValues, type FormVariant } from './support/computerUseForm.js';
import { startFakeOpenAI, type FakeOpenAI } from './support/fakeOpenAI.js';

/**
 * `rote proxy` for computer-use agents: a minimal agent loop (the real openai client, Playwright
 * acting on a form) through the proxy, against a scripted upstream that is as strict as the real
 * service and counts its calls. Every served action follows a screenshot the proxy checked.
 */
const ADA: ClientValues = { first: 'Ada', last: 'Lovelace', email: 'ada@example.com' };
const JO: ClientValues = { first: 'Joan', last: "O'Neil", email: 'joan.oneil@example.org' };
const CY: ClientValues = { first: 'Cyrus', last: 'Tanaka', email: 'cy@example.net' };

let upstream: FakeOpenAI;
let proxy: RunningProxy;
let variant: FormVariant;
let site: Awaited<ReturnType<typeof startFormSite>>;
let log: string[];
test.use({ viewport: DISPLAY });
test.beforeEach(async ({ page }) => {
  variant = 'plain';
  site = await startFormSite(() => variant);
  upstream = await startFakeOpenAI({ brain: formBrain(page) });
  log = [];
  proxy = await startProxy({ upstream: new URL(upstream.baseURL), tree: new MemoryConversationTree(), log: (line) => log.push(line) });
});
test.afterEach(async () => {
  await proxy.close();
  await upstream.close();
  await site.close();
});

async function fill(page: import('playwright').Page, values: ClientValues, options: { form: ToolForm; style: ClientStyle; stream?: boolean; firstScreenshot?: boolean }) {
  await page.goto(site.origin);
  const before = upstream.requests.length;
  const loop: LoopOptions = { task: taskOf(values), params: { ...values }, ...options };
  const result = await computerUseLoop(proxy.url, 'sk-test-computer', page, loop);
  const calls = upstream.requests.slice(before);
  return { ...result, upstreamCalls: calls.length, upstreamComputerCalls: calls.filter((call) => call.status === 200).length - (result.answer ? 1 : 0) };
}

for (const form of ['preview', 'batch'] as const) {
  for (const style of ['full', 'previous'] as const) {
    test(`a form filled through the proxy once is filled again with other values with no upstream computer call (${form} tool, ${style === 'full' ? 'whole input' : 'previous_response_id'})`, async ({ page }) => {
      const first = await fill(page, ADA, { form, style });
      expect(first.answer).toBe('The client is saved.');
      expect(first.caches.every((cache) => cache === 'miss')).toBe(true);
      expect(site.submissions()).toEqual([ADA]);

      const second = await fill(page, JO, { form, style });
      expect(second.answer).toBe('The client is saved.');
      // Every computer action from the cache; only the final message went upstream.
      expect(second.caches.slice(0, -1).every((cache) => cache === 'hit'), JSON.stringify(second.reasons)).toBe(true);
      expect(second.caches.at(-1)).toBe('miss');
      expect(second.upstreamCalls).toBe(1);
      expect(second.actions.length).toBe(8);
      expect(site.submissions()).toEqual([ADA, JO]);
    });
  }
}

test('an agent that sends a screenshot with its task has its first click checked on it and served: no screenshot turn, no upstream computer call', async ({ page }) => {
  const first = await fill(page, ADA, { form: 'preview', style: 'previous', firstScreenshot: true });
  expect(first.actions[0]).toMatchObject({ type: 'click' });
  const second = await fill(page, JO, { form: 'preview', style: 'previous', firstScreenshot: true });
  expect(second.caches.slice(0, -1).every((cache) => cache === 'hit'), JSON.stringify(second.reasons)).toBe(true);
  expect(second.actions).toHaveLength(7);
  expect(second.upstreamCalls).toBe(1);
  expect(site.submissions().at(-1)).toEqual(JO);
  // On the swapped form the first click's check fails on the task's own screenshot.
  variant = 'swapped';
  const swapped = await fill(page, CY, { form: 'preview', style: 'previous', firstScreenshot: true });
  expect(swapped.caches[0]).toBe('miss');
  expect(swapped.reasons[0]).toMatch(/pixels around the step's point differ/);
  expect(site.submissions().at(-1)).toEqual(CY);
});

test('a modal at step 3 is forwarded from there as a new upstream conversation the client never sees; a third run on the same variant replays the new branch', async ({ page }) => {
  await fill(page, ADA, { form: 'preview', style: 'previous' });
  variant = 'modal';
  const before = upstream.requests.length;
  const second = await fill(page, JO, { form: 'preview', style: 'previous' });
  expect(second.answer).toBe('The client is saved.');
  // The screenshot and the first name's click from the cache; the modal it brought up is the upstream's.
  expect(second.caches.slice(0, 2)).toEqual(['hit', 'hit']);
  expect(second.caches.slice(2).every((cache) => cache === 'miss')).toBe(true);
  expect(second.reasons[2]).toMatch(/pixels around the step's point differ from the recording/);
  expect(second.actions[2]).toMatchObject({ type: 'click' });
  // A valid new upstream conversation: the task, a note of the steps done and the screenshot; then it goes on.
  const takeover = upstream.requests[before]!;
  expect(takeover.status).toBe(200);
  expect(takeover.body.previous_response_id).toBeUndefined();
  expect(JSON.stringify(takeover.body.input)).toContain('This task is already under way. These steps were done, in this order:\\n1. took a screenshot\\n2. click at (');
  expect(upstream.requests.slice(before + 1).every((request) => typeof request.body.previous_response_id === 'string' && request.status === 200)).toBe(true);
  expect(site.submissions().at(-1)).toEqual(JO);

  const third = await fill(page, CY, { form: 'preview', style: 'full' });
  expect(third.caches.slice(0, -1).every((cache) => cache === 'hit'), JSON.stringify(third.reasons)).toBe(true);
  expect(third.upstreamCalls).toBe(1);
  expect(site.submissions().at(-1)).toEqual(CY);
  // And the plain form still replays its own path.
  variant = 'plain';
  const plain = await fill(page, ADA, { form: 'preview', style: 'previous' });
  expect(plain.upstreamCalls).toBe(1);
  expect(site.submissions().at(-1)).toEqual(ADA);
});

test('labels swapped under the same coordinates: the crop check fails, nothing is served, and the upstream fills each field by its label', async ({ page }) => {
  await fill(page, ADA, { form: 'preview', style: 'previous' });
  variant = 'swapped';
  const swapped = await fill(page, JO, { form: 'preview', style: 'previous' });
  // The screenshot action changes nothing and is served; the click on the first row is not.
  expect(swapped.caches[0]).toBe('hit');
  expect(swapped.caches.slice(1).every((cache) => cache === 'miss')).toBe(true);
  expect(swapped.reasons[1]).toMatch(/pixels around the step's point differ from the recording/);
  expect(site.submissions().at(-1)).toEqual(JO);
});

test('a step recorded with a pending safety check is never served; an acknowledgement for a call the proxy served is refused', async ({ page }) => {
  const brain = upstream.brain;
  upstream.brain = async (turn) => {
    const decision = await brain(turn);
    return 'actions' in decision && decision.intent === 'Submit' ? { ...decision, safetyChecks: [{ id: 'cu_sc_upstream1', code: 'irrelevant_domain', message: 'Check before you submit.' }] } : decision;
  };
  const first = await fill(page, ADA, { form: 'preview', style: 'previous' });
  const submit = first.responses.at(-2)!.output.find((item) => item.type === 'computer_call') as { pending_safety_checks: { id: string }[] };
  // The client sees the proxy's id for the check, and its acknowledgement reached the upstream as the upstream's.
  expect(submit.pending_safety_checks[0]!.id).toMatch(/^cu_sc_rote[0-9a-f]{32}$/);
  expect(upstream.requests.at(-1)!.status).toBe(200);
  for (const values of [JO, CY]) {
    const again = await fill(page, values, { form: 'preview', style: 'full' });
    expect(again.caches.slice(0, 7).every((cache) => cache === 'hit')).toBe(true);
    expect(again.caches[7]).toBe('miss');
    expect(again.reasons[7]).toMatch(/safety check/);
    expect(site.submissions().at(-1)).toEqual(values);
  }

  await page.goto(site.origin);
  const client = new OpenAI({ baseURL: `${proxy.url}/v1`, apiKey: 'sk-test-computer', maxRetries: 0 });
  const tools = [{ type: 'computer_use_preview' as const, display_width: DISPLAY.width, display_height: DISPLAY.height, environment: 'browser' as const }];
  const served = await client.responses.create({ model: 'computer-use-preview', tools, truncation: 'auto', input: [{ role: 'user', content: taskOf(JO) }] }, { headers: { 'Rote-Params': JSON.stringify(JO) } });
  const call = served.output.find((item) => item.type === 'computer_call')!;
  const screenshot = `data:image/png;base64,${(await page.screenshot()).toString('base64')}`;
  await expect(
    client.responses.create({ model: 'computer-use-preview', tools, truncation: 'auto', previous_response_id: served.id, input: [{ type: 'computer_call_output', call_id: call.call_id, output: { type: 'computer_screenshot', image_url: screenshot }, acknowledged_safety_checks: [{ id: 'cu_sc_made_up' }] }] }, { headers: { 'Rote-Params': JSON.stringify(JO) } }),
  ).rejects.toMatchObject({ status: 400, error: { code: 'unknown_safety_check' } });
  // An id the proxy never gave is what the upstream says of one it never gave.
  await expect(
    client.responses.create({ model: 'computer-use-preview', tools, truncation: 'auto', previous_response_id: `resp_rote${'0'.repeat(32)}`, input: [{ type: 'computer_call_output', call_id: call.call_id, output: { type: 'computer_screenshot', image_url: screenshot } }] }),
  ).rejects.toMatchObject({ status: 400, error: { code: 'previous_response_not_found', param: 'previous_response_id' } });
});

test('streamed hits pass the SDK stream helper and equal the hits served as JSON', async ({ page }) => {
  await fill(page, ADA, { form: 'batch', style: 'previous' });
  const streamed = await fill(page, JO, { form: 'batch', style: 'previous', stream: true });
  const plain = await fill(page, JO, { form: 'batch', style: 'full' });
  expect(streamed.caches.slice(0, -1).every((cache) => cache === 'hit')).toBe(true);
  const shape = (run: typeof plain) => run.responses.map((response) => response.output.map((item) => (item.type === 'computer_call' ? { type: item.type, actions: (item as unknown as { actions: unknown }).actions, checks: item.pending_safety_checks } : { type: item.type })));
  expect(shape(streamed)).toEqual(shape(plain));
  expect(streamed.actions).toEqual(plain.actions);
  expect(site.submissions().slice(-2)).toEqual([JO, JO]);
});

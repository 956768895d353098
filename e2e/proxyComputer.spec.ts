import { expect, test } from '@playwright/test';
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

async function fill(page: import('playwright').Page, values: ClientValues, options: { form: ToolForm; style: ClientStyle; stream?: boolean }) {
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

import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';
import type { Agent, AgentAnswer, Observation } from '../src/agent/agent.js';
import { reportPaths } from '../src/report/links.js';
import { writeReport } from '../src/report/writeReport.js';
import { appTest } from './support/appTest.js';
import { startChoicesApp } from './support/choicesApp.js';

/**
 * An Agent is the user's code: it may never answer, or read the page while a native dialog holds
 * it. Whatever it does, a run ends by its deadline (plus the stated grace), no dialog is left open,
 * and the page answers the caller at once. What rote did with each dialog is in the result.
 */
const test = appTest(startChoicesApp);

const TIMEOUT_MS = 6_000;
/** The stated grace is 3 s; this bound is generous so a busy machine does not fail it (no timing is claimed). */
const BOUND_MS = TIMEOUT_MS + 10_000;

/** An agent written to the plain contract: it reads the page's DOM to decide, and never looks at observation.dialog. */
function plainAgent(page: Page, seen: Observation[] = []): Agent {
  return {
    name: 'plain DOM reader',
    async next(observation) {
      seen.push(observation);
      return (await page.evaluate(`window.__plan(${JSON.stringify(observation.params)})`)) as AgentAnswer;
    },
  };
}

/** Runs on a page the test keeps open afterwards, to see how it was handed back. */
async function runKeeping(context: import('@playwright/test').BrowserContext, rote: import('../src/rote.js').Rote, url: string, agent: (page: Page) => Agent) {
  const page = await context.newPage();
  await page.goto(url);
  const started = Date.now();
  const result = await rote.run(page, { task: `Use ${new URL(url).pathname}`, agent: agent(page), timeout: TIMEOUT_MS, checkTimeout: 1000 });
  const elapsed = Date.now() - started;
  // A page a dialog still holds would never answer this; a usable one answers at once (a few ms
  // here), and 10 s tells the two apart on a busy machine too.
  const answer = await Promise.race([page.evaluate(() => document.readyState), new Promise<string>((resolve) => setTimeout(() => resolve('no answer in 10 s: a dialog still holds the page'), 10_000))]);
  expect(answer).toBe('complete');
  return { page, result, elapsed };
}

for (const [kind, outcome] of [
  ['alert', 'archived'],
  ['confirm', 'discarded'],
] as const) {
  test(`a plain agent meets ${kind === 'alert' ? 'an' : 'a'} ${kind}: accepted by rote's rule, said in the result, the page handed back free`, async ({ app, rote, context }) => {
    const { page, result } = await runKeeping(context, rote, app.url(`/${kind}`), (at) => plainAgent(at));
    expect(result.status, result.error).toBe('agent');
    await expect(page.locator('#status')).toHaveText(outcome);
    expect(result.dialogs).toEqual([expect.objectContaining({ step: 0, type: kind, outcome: 'accepted', by: 'rule' })]);
    });
}

test('a plain agent that reads the page while a prompt holds it: the run ends by its deadline, names the prompt, and dismisses it', async ({ app, rote, context }, testInfo) => {
  const { page, result, elapsed } = await runKeeping(context, rote, app.url('/prompt'), (at) => plainAgent(at));
  expect(result.status).toBe('failed');
  expect(result.errorCode).toBe('timeout');
  expect(result.error).toMatch(/timeout of 6000ms exceeded at step 1 while waiting for the agent \(a prompt "Name of the copy\?" was open; it was dismissed\)/);
  expect(elapsed).toBeLessThan(BOUND_MS);
  await expect(page.locator('#status')).toHaveText('cancelled');
  expect(result.dialogs).toEqual([expect.objectContaining({ type: 'prompt', message: 'Name of the copy?', outcome: 'dismissed', by: 'rule' })]);
  // The report's timeline says what became of the prompt.
  const written = await writeReport(rote.store, { runIds: [result.runId] }, testInfo.outputPath('report'));
  await page.goto(pathToFileURL(join(written.dir, reportPaths.run(result.runId))).href);
  await expect(page.locator('li.dialog')).toContainText('"Name of the copy?"');
  await expect(page.locator('li.dialog')).toContainText('dismissed by rote');
});

test('an agent that answers a prompt without deciding it is asked once more, saying why; then the prompt is dismissed and the run fails dialog-unanswered', async ({ app, rote, context }) => {
  const seen: Observation[] = [];
  // It clicks from a script it worked out before, and answers a prompt's turn with its next click.
  const scripted = (page: Page): Agent => ({
    async next(observation) {
      seen.push(observation);
      if (observation.dialog) return { actions: [{ type: 'click', x: 5, y: 5 }] };
      return (await page.evaluate(`window.__plan({})`)) as AgentAnswer;
    },
  });
  const { page, result, elapsed } = await runKeeping(context, rote, app.url('/prompt'), scripted);
  expect(result.status).toBe('failed');
  expect(result.errorCode).toBe('dialog-unanswered');
  expect(result.error).toMatch(/the agent was asked twice to answer the prompt "Name of the copy\?" \(opened by step 1\) and gave no decision/);
  expect(elapsed).toBeLessThan(BOUND_MS);
  const prompts = seen.filter((observation) => observation.dialog);
  expect(prompts).toHaveLength(2);
  expect(prompts[0]!.dialog!.note).toBeUndefined();
  expect(prompts[1]!.dialog!.note).toMatch(/Your last answer gave no decision for this prompt/);
  await expect(page.locator('#status')).toHaveText('cancelled');
  expect(result.dialogs).toEqual([expect.objectContaining({ type: 'prompt', outcome: 'dismissed', by: 'rule', reason: expect.stringContaining('asked twice') })]);
});

test('an agent whose next() never returns is abandoned at the deadline', async ({ app, rote, context }) => {
  const { result, elapsed } = await runKeeping(context, rote, app.url('/bell'), () => ({ next: () => new Promise<AgentAnswer>(() => undefined) }));
  expect(result.status).toBe('failed');
  expect(result.errorCode).toBe('timeout');
  expect(result.error).toMatch(/timeout of 6000ms exceeded at step 1 while waiting for the agent/);
  expect(elapsed).toBeLessThan(BOUND_MS);
});

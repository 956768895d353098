import { test as base, expect, type Page } from '@playwright/test';
import type { DialogAnswer, NativeDialog } from '../src/agent/agent.js';
import type { RunOptions } from '../src/engine/runOptions.js';
import type { RunResult } from '../src/engine/runResult.js';
import { Rote } from '../src/rote.js';
import { startCorpusApp, type CorpusApp } from './support/corpusApp.js';
import { oracleAgent } from './support/oracleAgent.js';

/**
 * A native prompt carries a value: the agent answers it (with a parameter, the text it offers, or
 * Cancel), the answer is recorded with the step (templated when it is a parameter) and replayed.
 */
type Answerer = (dialog: NativeDialog, params: Record<string, string>) => DialogAnswer;
type Run = (params: Record<string, string>, answer: Answerer, options?: Partial<RunOptions>) => Promise<{ result: RunResult; prompts: NativeDialog[] }>;
const test = base.extend<{ app: CorpusApp; rote: Rote; run: Run }>({
  app: async ({}, use) => {
    const app = await startCorpusApp(3);
    await use(app);
    await app.close();
  },
  rote: async ({}, use) => {
    const rote = await Rote.open({ store: ':memory:' });
    await use(rote);
    await rote.close();
  },
  run: async ({ app, rote, context }, use) => {
    await use(async (params, answer, options = {}) => {
      const page: Page = await context.newPage();
      await page.goto(app.url('/prompt'));
      const prompts: NativeDialog[] = [];
      const agent = oracleAgent(page, { answerPrompt: (dialog, shown) => (prompts.push(dialog), answer(dialog, shown)) });
      const result = await rote.run(page, { task: 'Rename the report', params, agent, checkTimeout: 1500, ...options });
      await page.close();
      return { result, prompts };
    });
  },
});

const posted = (app: CorpusApp) => app.submissions.at(-1)?.fields.name;

test('the agent answers a prompt with a parameter; the replay answers it with the new value and no agent call', async ({ app, run }) => {
  const recorded = await run({ reportName: 'Q3 figures' }, (_dialog, params) => ({ accept: true, text: params.reportName! }));
  expect(recorded.prompts).toEqual([{ type: 'prompt', message: 'New name for the report?', defaultValue: 'Untitled report' }]);
  expect(posted(app)).toBe('Q3 figures');
  const replay = await run({ reportName: 'Q4 forecast' }, () => {
    throw new Error('the agent must not be asked');
  });
  expect(replay.result.status, replay.result.error).toBe('replayed');
  expect(replay.result.agentCalls).toBe(0);
  expect(posted(app)).toBe('Q4 forecast');
});

test('OK with no typing sends the text the prompt offers, when recorded and when replayed', async ({ app, run }) => {
  await run({}, () => ({ accept: true }));
  expect(posted(app)).toBe('Untitled report');
  const replay = await run({}, () => ({ accept: false }));
  expect(replay.result.status, replay.result.error).toBe('replayed');
  expect(posted(app)).toBe('Untitled report');
});

test('a prompt the agent cancelled is cancelled on replay', async ({ app, run }) => {
  await run({}, () => ({ accept: false }));
  expect(posted(app)).toBe('Untitled');
  const replay = await run({}, () => ({ accept: true, text: 'never used' }));
  expect(replay.result.status, replay.result.error).toBe('replayed');
  expect(posted(app)).toBe('Untitled');
});

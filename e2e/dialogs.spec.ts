import { expect, type Page } from '@playwright/test';
import type { DialogAnswer, NativeDialog } from '../src/agent/agent.js';
import type { RunOptions } from '../src/engine/runOptions.js';
import type { RunResult } from '../src/engine/runResult.js';
import { appTest } from './support/appTest.js';
import { startCorpusApp, type CorpusApp } from './support/corpusApp.js';
import { oracleAgent } from './support/oracleAgent.js';

/**
 * A native prompt carries a value: the agent answers it (with a parameter, the text it offers, or
 * Cancel), the answer is recorded with the step (templated when it is a parameter) and replayed.
 */
type Answerer = (dialog: NativeDialog, params: Record<string, string>) => DialogAnswer;
type Run = (params: Record<string, string>, answer: Answerer, options?: Partial<Omit<RunOptions, 'agent'>>) => Promise<{ result: RunResult; prompts: NativeDialog[] }>;
const test = appTest(() => startCorpusApp(3)).extend<{ run: Run }>({
  run: async ({ runOn }, use) =>
    use(async (params, answer, options = {}) => {
      const prompts: NativeDialog[] = [];
      const agent = (page: Page) => oracleAgent(page, { answerPrompt: (dialog, shown) => (prompts.push(dialog), answer(dialog, shown)) });
      const result = await runOn('/prompt', { task: 'Rename the report', params, agent, ...options });
      return { result, prompts };
    }),
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

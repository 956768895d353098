/**
 * A native prompt answered by the OpenAI computer-use agent over the wire (a local fake of the
 * API, through the real client): the model is told what the prompt asks, answers with the keys a
 * person would press, and the answer is recorded and replayed with the next run's value.
 */
import { expect, type Page } from '@playwright/test';
import { openaiComputerAgent } from '../src/agent/openai/computerAgent.js';
import { Rote } from '../src/rote.js';
import { startCorpusApp } from './support/corpusApp.js';
import { textOf, type FakeBrain, type FakeOpenAI } from './support/fakeOpenAI.js';
import { testWithFakeModel } from './support/fakeModelTest.js';

const KEY = 'sk-rote-test-5c1e0b9d7a3f2e84c6d1';
const test = testWithFakeModel(KEY);

type Body = Record<string, unknown>;
const lastUserText = (body: Body) => ((body.input ?? []) as Body[]).filter((item) => item.role === 'user').map((item) => textOf(item.content)).at(-1) ?? '';

/** Clicks Rename, answers the prompt it opens with the report name (typing and Enter, as one or two calls), saves, says done. */
function renamingBrain(page: Page, prompts: string[]): FakeBrain {
  return async (turn) => {
    const seen = lastUserText(turn.body);
    if (turn.memory.stage === undefined) {
      // The page is readable now; once the prompt is open it is blocked, so both places are read here.
      turn.memory.boxes = await page.evaluate(() => ['rename', 'save'].map((id) => { const r = document.getElementById(id)!.getBoundingClientRect(); return { x: Math.round(r.x + r.width / 2), y: Math.round(r.y + r.height / 2) }; }));
      turn.memory.stage = 'rename';
      const [rename] = turn.memory.boxes as { x: number; y: number }[];
      return { actions: [{ type: 'click', button: 'left', ...rename! }], intent: 'Rename the report' };
    }
    if (turn.memory.stage === 'rename') {
      prompts.push(seen);
      turn.memory.stage = 'save';
      return { actions: [{ type: 'type', text: turn.params.reportName }, { type: 'keypress', keys: ['ENTER'] }], intent: 'Answer the prompt with the report name' };
    }
    if (turn.memory.stage === 'save') {
      turn.memory.stage = 'done';
      const [, save] = turn.memory.boxes as { x: number; y: number }[];
      return { actions: [{ type: 'click', button: 'left', ...save! }], intent: 'Save' };
    }
    return { done: true, answer: 'The report is renamed.' };
  };
}

for (const model of ['gpt-5.4', 'computer-use-preview']) {
  test(`the ${model} computer tool answers a native prompt with the keys a person would press; the replay answers it with the next value`, async ({ context, fake }: { context: import('@playwright/test').BrowserContext; fake: FakeOpenAI }) => {
    const app = await startCorpusApp(5);
    const rote = await Rote.open({ store: ':memory:' });
    try {
      const page = await context.newPage();
      await page.goto(app.url('/prompt'));
      const prompts: string[] = [];
      fake.brain = renamingBrain(page, prompts);
      const agent = openaiComputerAgent({ model, apiKey: KEY, baseURL: fake.baseURL });
      const recorded = await rote.run(page, { task: 'Rename the report to {{reportName}}', params: { reportName: 'Q3 figures' }, agent });
      expect(recorded.status, recorded.error).toBe('agent');
      expect(app.submissions.at(-1)!.fields.name).toBe('Q3 figures');
      // The model was told of the prompt, which no screenshot shows.
      expect(prompts[0]).toContain('native browser prompt');
      expect(prompts[0]).toContain('"New name for the report?"');
      expect(prompts[0]).toContain('"Untitled report"');

      const next = await context.newPage();
      await next.goto(app.url('/prompt'));
      const requests = fake.requests.length;
      const replay = await rote.run(next, { task: 'Rename the report to {{reportName}}', params: { reportName: 'Q4 forecast' }, agent });
      expect(replay.status, replay.error).toBe('replayed');
      expect(fake.requests).toHaveLength(requests);
      expect(app.submissions.at(-1)!.fields.name).toBe('Q4 forecast');
    } finally {
      await rote.close();
      await app.close();
    }
  });
}

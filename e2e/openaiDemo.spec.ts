/**
 * `rote demo` with a model: OPENAI_API_KEY and OPENAI_BASE_URL point it at a local server that
 * answers in the OpenAI wire format. The demo runs its own browser, so the fake model plans from
 * the prompt and the form's fixed layout instead of reading the page. Its own file because it
 * takes as long as the demo itself (four runs, a browser launch, a 3 s check timeout in run 3).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { demoCommand } from '../src/cli/demoCommand.js';
import { expect } from './fixtures.js';
import { textOf } from './support/fakeOpenAI.js';
import { plannerBrain, readIntakeLayout } from './support/intakePlanner.js';
import { testWithFakeModel } from './support/fakeModelTest.js';

const KEY = 'sk-rote-test-0c5e8f1a9b3d7e2c4a6f';

const test = testWithFakeModel(KEY);


type Body = Record<string, unknown>;
const userTexts = (body: Body) => ((body.input ?? []) as Body[]).filter((item) => item.role === 'user').map((item) => textOf(item.content));

test('rote demo runs the OpenAI agent when OPENAI_API_KEY is set, at OPENAI_BASE_URL', async ({ app, page, fake, output: capture }) => {
  fake.brain = plannerBrain(await readIntakeLayout(page, app));
  capture.start();
  let code: number;
  try {
    code = await demoCommand({ store: join(mkdtempSync(join(tmpdir(), 'rote-demo-')), 'demo.db') }, { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: fake.baseURL });
  } finally {
    capture.stop();
  }
  const output = capture.text.join('');
  expect(code, output).toBe(0);
  expect(output).toContain(`Agent: the OpenAI computer-use agent, model computer-use-preview with the computer_use_preview tool, at ${fake.baseURL}.`);
  expect(output).toContain('All four runs submitted the right values; runs 2 and 4 made no agent call.');
  expect(output).not.toContain(KEY);
  // Run 1 is the miss, run 3 the popup: one call, with the divergence in its prompt.
  const opening = fake.requests.filter((request) => request.body.previous_response_id === undefined);
  expect(opening).toHaveLength(2);
  expect(userTexts(opening[1]!.body)[0]).toContain('cannot be done safely');
  expect(fake.requests.at(-1)!.body.previous_response_id).toBeUndefined();
});

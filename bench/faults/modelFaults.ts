import type { Browser } from 'playwright';
import { openaiComputerAgent } from '../../src/agent/openai/computerAgent.js';
import type { IntakeApp } from '../../src/demo/app/server.js';
import { submissionProblems } from '../../src/demo/patients.js';
import type { RunResult } from '../../src/engine/runResult.js';
import { Rote } from '../../src/rote.js';
import { domBrain } from '../../e2e/support/domBrain.js';
import { apiError, startFakeOpenAI, type FakeReply } from '../../e2e/support/fakeOpenAI.js';
import { CRASH_PATIENTS } from './crashPatients.js';
import type { FaultOutcome } from './faultOutcome.js';
import { within } from './within.js';

export const modelFaultKinds = ['timeout', '429 burst', '5xx burst', 'truncated JSON', 'answer cut midway', 'no action', 'action outside the viewport'] as const;
export type ModelFaultKind = (typeof modelFaultKinds)[number];

export type ModelFaultEnvironment = { app: IntakeApp; browser: Browser; random: () => number; log: (line: string) => void };

const KEY = 'sk-fault-suite';
/** Roomy: the agent does every step, and the load may be running beside it. */
const RUN_TIMEOUT_MS = 60_000;
const HANG_MS = RUN_TIMEOUT_MS + 15_000;

/** What the model service answers first, before it answers well (a brain that reads the page). */
function faultReplies(kind: ModelFaultKind): FakeReply[] {
  switch (kind) {
    case 'timeout':
      return [{ http: 200, delayMs: 4_000 }, { http: 200, delayMs: 4_000 }, { http: 200, delayMs: 4_000 }];
    case '429 burst':
      return [1, 2].map(() => ({ http: 429, headers: { 'retry-after-ms': '100' }, body: apiError('Rate limit reached', 'rate_limit_exceeded', 'rate_limit_exceeded') }));
    case '5xx burst':
      return [500, 502, 503, 500].map((status) => ({ http: status, body: apiError('The server had an error while processing your request.', 'server_error') }));
    case 'truncated JSON':
      return [1, 2, 3].map(() => ({ http: 200, rawBody: '{"id":"resp_cut","object":"response","output":[{"type":"computer_call","call_id":"call_1","action":{"type":"cli' }));
    case 'answer cut midway':
      return [1, 2, 3].map(() => ({ http: 200, body: { id: 'resp_cut', object: 'response', output: [] }, cutAfter: 20 }));
    case 'no action':
      return [1, 2, 3].map(() => ({ output: [] }));
    case 'action outside the viewport':
      return [1, 2, 3].map(() => ({ actions: [{ type: 'click', x: 4000, y: 3000, button: 'left' }], intent: 'Click far away' }));
  }
}

/**
 * One fault of the model service while the agent does a task the cache has never seen (every
 * step needs it): the faults come first, then good answers. Clean: the run ended by its deadline,
 * either done right (the retries outlasted the fault) or failed with a message that names what
 * happened; never a submission with other values, never an action taken from a broken answer.
 */
export async function injectModelFault(kind: ModelFaultKind, env: ModelFaultEnvironment, index: number): Promise<FaultOutcome> {
  const { app } = env;
  const before = app.submissions.length;
  const params = CRASH_PATIENTS[(index * 5 + modelFaultKinds.indexOf(kind)) % CRASH_PATIENTS.length]!;
  const fake = await startFakeOpenAI({ apiKey: KEY });
  const rote = await Rote.open({ store: ':memory:' });
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const started = Date.now();
  let result: RunResult | undefined;
  let error: string | undefined;
  try {
    const page = await context.newPage();
    await page.goto(app.url);
    fake.brain = domBrain(page);
    fake.queue(...faultReplies(kind));
    const agent = openaiComputerAgent({ model: 'computer-use-preview', apiKey: KEY, baseURL: fake.baseURL, timeoutMs: 1_000, maxRetries: 2 });
    const run = rote.run(page, { task: 'Register patient {{firstName}} {{lastName}} in the intake form', params, agent, timeout: RUN_TIMEOUT_MS });
    result = await within(run, HANG_MS, undefined);
    run.catch(() => undefined);
  } catch (thrown) {
    error = thrown instanceof Error ? thrown.message.split('\n')[0] : String(thrown);
  } finally {
    await context.close().catch(() => undefined);
    await rote.close();
    await fake.close();
  }
  const submitted = app.submissions.slice(before);
  const wrong = submitted.filter((submission) => submissionProblems(params, submission).length > 0).length + Math.max(0, submitted.length - 1);
  const notes: string[] = [];
  if (error) notes.push(`rote.run threw: ${error}`);
  if (!result && !error) notes.push(`the run did not end in ${HANG_MS} ms`);
  const succeeded = result && (result.status === 'agent' || result.status === 'mixed' || result.status === 'replayed');
  if (succeeded && submitted.length !== 1) notes.push(`ended ${result!.status} with ${submitted.length} submissions`);
  if (result && !succeeded && (result.status !== 'failed' || !result.error || !/openaiComputerAgent|agent/.test(result.error))) notes.push(`ended ${result.status} without naming the model's failure: ${(result.error ?? '').split('\n')[0]}`);
  env.log(`model ${kind} #${index}: ${result ? `${result.status}${result.status === 'failed' ? `: ${(result.error ?? '').split('\n')[0]}` : ''}` : 'no result'} in ${Date.now() - started} ms${notes.length > 0 ? `; ${notes.join('; ')}` : ''}`);
  return { kind: `model: ${kind}`, clean: notes.length === 0 && wrong === 0, lost: false, wrong, hang: !result && !error, notes };
}

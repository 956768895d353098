import type { Browser } from 'playwright';
import type { Agent } from '../../src/agent/agent.js';
import type { IntakeApp } from '../../src/demo/app/server.js';
import { demoAgent } from '../../src/demo/demoAgent.js';
import { INTAKE_TASK, submissionProblems } from '../../src/demo/patients.js';
import type { RunResult } from '../../src/engine/runResult.js';
import { Rote } from '../../src/rote.js';
import { CRASH_PATIENTS } from './crashPatients.js';
import type { FaultOutcome } from './faultOutcome.js';
import { within } from './within.js';

/**
 * Agents of the user's own that break the run's hold on time: one whose next() never settles, and
 * one written to the plain contract (it reads the page's DOM to decide and never looks at
 * observation.dialog) meeting a native prompt, which blocks every read of the page until answered.
 */
export const agentFaultKinds = ['never returns', 'reads the page while a prompt is open'] as const;
export type AgentFaultKind = (typeof agentFaultKinds)[number];

export type AgentFaultEnvironment = { app: IntakeApp; browser: Browser; log: (line: string) => void };

/** Short: both faults hold the run until its deadline, which must end it. */
const RUN_TIMEOUT_MS = 8_000;
/** What rote promises past the deadline (docs/: the run's deadline), and slack for a busy machine. */
const GRACE_MS = 3_000;
const HANG_MS = RUN_TIMEOUT_MS + GRACE_MS + 20_000;
/** A page a dialog holds answers nothing; one that is free answers an evaluate in a few ms. */
const ANSWER_MS = 10_000;

/** On the first click into a field, the page asks a question with a native prompt (once per tab). */
const PROMPT_ON_FIRST_CLICK = `(function () {
  document.addEventListener('click', function (event) {
    if (sessionStorage.getItem('rote-prompt') || !(event.target instanceof HTMLInputElement)) return;
    sessionStorage.setItem('rote-prompt', '1');
    prompt('Why are you editing this record?', '');
  }, true);
})();`;

/**
 * One agent fault while the agent does the intake task (a fresh store: every step is the agent's).
 * Clean: the run ended by its deadline plus the stated grace as failed with a timeout, no dialog is
 * left open (the page answers at once), and nothing was submitted with other values.
 */
export async function injectAgentFault(kind: AgentFaultKind, env: AgentFaultEnvironment, index: number): Promise<FaultOutcome> {
  const { app } = env;
  const before = app.submissions.length;
  const params = CRASH_PATIENTS[(index * 3 + agentFaultKinds.indexOf(kind)) % CRASH_PATIENTS.length]!;
  const rote = await Rote.open({ store: ':memory:' });
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const notes: string[] = [];
  let result: RunResult | undefined;
  let error: string | undefined;
  let elapsed = 0;
  try {
    if (kind === 'reads the page while a prompt is open') await context.addInitScript(PROMPT_ON_FIRST_CLICK);
    const page = await context.newPage();
    await page.goto(app.url);
    const agent: Agent = kind === 'never returns' ? { name: 'never returns', next: () => new Promise(() => undefined) } : demoAgent(page);
    // Timed from the call, as the deadline is: opening the page before it is not the run's time.
    const started = Date.now();
    const run = rote.run(page, { task: INTAKE_TASK, params, agent, timeout: RUN_TIMEOUT_MS });
    result = await within(run, HANG_MS, undefined);
    elapsed = Date.now() - started;
    run.catch(() => undefined);
    const answered = await within(page.evaluate(() => document.readyState).then(() => true), ANSWER_MS, false);
    if (!answered) notes.push(`the page did not answer an evaluate within ${ANSWER_MS} ms after the run: a dialog still holds it`);
  } catch (thrown) {
    error = thrown instanceof Error ? thrown.message.split('\n')[0] : String(thrown);
  } finally {
    await context.close().catch(() => undefined);
    await rote.close();
  }
  const submitted = app.submissions.slice(before);
  const wrong = submitted.filter((submission) => submissionProblems(params, submission).length > 0).length;
  if (error) notes.push(`rote.run threw: ${error}`);
  if (!result && !error) notes.push(`the run did not end in ${HANG_MS} ms`);
  if (result && elapsed > RUN_TIMEOUT_MS + GRACE_MS) notes.push(`the run ended ${elapsed - RUN_TIMEOUT_MS} ms after its deadline, past the ${GRACE_MS} ms grace`);
  if (result && (result.status !== 'failed' || result.errorCode !== 'timeout')) notes.push(`ended ${result.status}${result.errorCode ? ` (${result.errorCode})` : ''}, not failed by its timeout`);
  if (result && kind === 'reads the page while a prompt is open' && !/prompt "Why are you editing/.test(result.error ?? '')) notes.push(`the error does not name the open prompt: ${(result.error ?? '').split('\n')[0]}`);
  env.log(`agent ${kind} #${index}: ${result ? `${result.status}${result.errorCode ? ` (${result.errorCode}: ${(result.error ?? '').split('\n')[0]})` : ''}` : 'no result'} in ${elapsed} ms${notes.length > 0 ? `; ${notes.join('; ')}` : ''}`);
  return { kind: `agent: ${kind}`, clean: notes.length === 0 && wrong === 0, lost: false, wrong, hang: !result && !error, notes };
}

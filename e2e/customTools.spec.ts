import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Observation } from '../src/agent/agent.js';
import { scriptedAgent } from '../src/agent/scriptedAgent.js';
import type { Check } from '../src/checks/customCheck.js';
import { secret } from '../src/params/secret.js';
import { Rote } from '../src/rote.js';
import type { ToolOptions } from '../src/tools/toolRegistry.js';
import { expect } from './fixtures.js';
import { BANK_TASK, PAY, bankTest, fillPayment } from './support/bankApp.js';

const TASK = BANK_TASK;

/** The account type shown must be the recorded one. */
const sameAccountType: Check<string> = {
  capture: async ({ page }) => (await page.textContent('#type')) ?? '',
  compare: (current, recorded) => current === recorded,
};

/** After filling, the page must show the warning it showed when recorded (none). */
const sameWarning: Check<string> = {
  capture: async ({ page }) => (await page.textContent('#warning')) ?? '',
  compare: (current, recorded) => current === recorded,
};

/** Calls the tool (a placeholder for the PIN, which it cannot see), clicks Pay, then says it is done. */
function payAgent() {
  return scriptedAgent((observation: Observation) => {
    if (!observation.history.some((step) => step.action.type === 'tool')) {
      const args: Record<string, string> = { amount: observation.params.amount! };
      if (observation.params.pin !== undefined) args.pin = '{{pin}}';
      return { intent: 'Fill the payment from the API', actions: [{ type: 'tool', name: 'fillPayment', args }] };
    }
    if (!observation.url.endsWith('/paid')) return { intent: 'Pay', actions: [{ type: 'click', x: PAY.x + 110, y: PAY.y + 15 }] };
    return { done: true };
  });
}

function register(rote: Rote, calls: Record<string, unknown>[], options: ToolOptions<unknown, unknown> = { preCheck: sameAccountType, postCheck: sameWarning }) {
  rote.tool('fillPayment', fillPayment(calls), { description: 'Fills the payment form from the payments API', ...options } as ToolOptions);
}

bankTest('a tool call is recorded with its checks and replayed with new values and no agent call', async ({ bank, rote, openAccount }) => {
  const calls: Record<string, unknown>[] = [];
  register(rote, calls);
  const recorder = payAgent();
  const recorded = await rote.run(await openAccount(), { task: TASK, params: { amount: '250' }, agent: recorder });
  expect(recorded.status).toBe('agent');
  expect(recorded.steps.map((step) => step.action.type)).toEqual(['tool', 'click']);
  expect(bank.payments).toEqual([{ amount: '250', pin: '' }]);
  // The agent was told what it may call, and saw what the call returned.
  expect(recorder.observations[0]!.tools).toEqual([{ name: 'fillPayment', description: 'Fills the payment form from the payments API' }]);
  expect(recorder.observations[1]!.history[0]).toMatchObject({ action: { type: 'tool', name: 'fillPayment', args: { amount: '250' } }, result: { balance: 1200 } });
  // Stored as a template, with what the checks captured.
  const nodes = (await rote.store.subtree(recorded.taskKey, null, 10)) as unknown as { action: { type: string; args?: unknown }; state: { tool?: unknown } }[];
  const toolNode = nodes.find((node) => node.action.type === 'tool')!;
  expect(toolNode.action.args).toEqual({ amount: '{{amount}}' });
  expect(toolNode.state.tool).toEqual({ pre: 'Checking', post: '' });

  const replayer = payAgent();
  const replayed = await rote.run(await openAccount(), { task: TASK, params: { amount: '400' }, agent: replayer });
  expect(replayed.status, replayed.error).toBe('replayed');
  expect(replayer.calls).toBe(0);
  expect(replayed.steps.map((step) => [step.kind, step.action.type])).toEqual([
    ['cached', 'tool'],
    ['cached', 'click'],
  ]);
  expect(calls.at(-1)).toEqual({ amount: '400' });
  expect(bank.payments.at(-1)).toEqual({ amount: '400', pin: '' });
});

bankTest('a failing pre-check is a divergence: replay-only stops before the call, auto hands the step to the agent', async ({ bank, rote, openAccount }) => {
  const calls: Record<string, unknown>[] = [];
  register(rote, calls);
  await rote.run(await openAccount(), { task: TASK, params: { amount: '250' }, agent: payAgent() });
  bank.accountType = 'Savings';

  const stopped = await rote.run(await openAccount(), { task: TASK, params: { amount: '300' }, mode: 'replay-only', checkTimeout: 300 });
  expect(stopped.status).toBe('diverged');
  expect(stopped.divergences[0]).toMatchObject({ step: 0, reason: 'custom pre-check of tool "fillPayment" failed: compare returned false' });
  expect(stopped.error).toContain('custom pre-check of tool "fillPayment" failed');
  expect(calls).toHaveLength(1);
  expect(bank.payments).toHaveLength(1);

  const agent = payAgent();
  const handed = await rote.run(await openAccount(), { task: TASK, params: { amount: '300' }, agent, checkTimeout: 300 });
  expect(agent.calls).toBeGreaterThan(0);
  expect(agent.observations[0]!.divergence?.reason).toContain('tool "fillPayment"');
  expect(handed.status).toBe('mixed');
  expect(handed.steps[0]!.kind).toBe('agent');
  expect(bank.payments.at(-1)).toEqual({ amount: '300', pin: '' });

  // The agent's call on a Savings account is kept as an alternative: next time it replays.
  const again = await rote.run(await openAccount(), { task: TASK, params: { amount: '350' }, mode: 'replay-only' });
  expect(again.status, again.error).toBe('replayed');
  bank.accountType = 'Checking';
  const back = await rote.run(await openAccount(), { task: TASK, params: { amount: '360' }, mode: 'replay-only' });
  expect(back.status, back.error).toBe('replayed');
  expect(bank.payments.map((payment) => payment.amount)).toEqual(['250', '300', '350', '360']);
});

bankTest('a similarity under the threshold diverges, one above it passes', async ({ bank, rote, openAccount }) => {
  const calls: Record<string, unknown>[] = [];
  const similarBalance: Check<number> = {
    capture: async ({ page }) => Number(await page.textContent('#balance')),
    compare: (current, recorded) => 1 - Math.abs(current - recorded) / Math.max(recorded, 1),
    threshold: 0.8,
  };
  register(rote, calls, { preCheck: similarBalance });
  await rote.run(await openAccount(), { task: TASK, params: { amount: '250' }, agent: payAgent() });

  bank.balance = 1100; // similarity 0.917
  const close = await rote.run(await openAccount(), { task: TASK, params: { amount: '260' }, mode: 'replay-only' });
  expect(close.status, close.error).toBe('replayed');

  bank.balance = 500; // similarity 0.417
  const far = await rote.run(await openAccount(), { task: TASK, params: { amount: '270' }, mode: 'replay-only', checkTimeout: 300 });
  expect(far.status).toBe('diverged');
  expect(far.divergences[0]!.reason).toBe('custom pre-check of tool "fillPayment" failed: similarity 0.417 below 0.8');
  expect(bank.payments.map((payment) => payment.amount)).toEqual(['250', '260']);
});

bankTest('a failing post-check is never a clean replay: replay-only stops before Pay, auto hands over with the reason', async ({ bank, rote, openAccount }) => {
  const calls: Record<string, unknown>[] = [];
  register(rote, calls);
  await rote.run(await openAccount(), { task: TASK, params: { amount: '250' }, agent: payAgent() });
  bank.limit = 300;

  const stopped = await rote.run(await openAccount(), { task: TASK, params: { amount: '400' }, mode: 'replay-only', checkTimeout: 300 });
  expect(stopped.status).toBe('diverged');
  expect(stopped.steps.map((step) => step.action.type)).toEqual(['tool']);
  expect(stopped.divergences[0]).toMatchObject({ step: 1, reason: 'custom post-check of tool "fillPayment" failed: compare returned false' });
  expect(calls.at(-1)).toEqual({ amount: '400' });
  expect(bank.payments).toHaveLength(1);

  const agent = payAgent();
  const handed = await rote.run(await openAccount(), { task: TASK, params: { amount: '400' }, agent });
  expect(handed.status).not.toBe('replayed');
  expect(handed.status).toBe('mixed');
  expect(agent.observations[0]!.divergence).toMatchObject({ step: 1, reason: expect.stringContaining('custom post-check of tool "fillPayment"') });
});

bankTest('a tool that throws fails the run with its name; a tool not registered is a divergence', async ({ bank, openAccount }) => {
  const dir = mkdtempSync(join(tmpdir(), 'rote-tools-'));
  const calls: Record<string, unknown>[] = [];
  const failure = { message: undefined as string | undefined };
  const rote = await Rote.open({ store: join(dir, 'rote.db') });
  rote.tool('fillPayment', fillPayment(calls, failure), { preCheck: sameAccountType });
  const recorded = await rote.run(await openAccount(), { task: TASK, params: { amount: '250' }, agent: payAgent() });
  expect(recorded.status).toBe('agent');
  const nodesBefore = await rote.store.nodeCount();

  failure.message = 'the payments API is down';
  const failed = await rote.run(await openAccount(), { task: TASK, params: { amount: '300' }, agent: payAgent() });
  expect(failed.status).toBe('failed');
  expect(failed.error).toContain('tool "fillPayment" failed: the payments API is down');
  expect(await rote.store.nodeCount()).toBe(nodesBefore);
  expect((await rote.store.listRuns(1))[0]).toMatchObject({ id: failed.runId, status: 'failed' });
  await rote.close();

  const other = await Rote.open({ store: join(dir, 'rote.db') });
  const unknown = await other.run(await openAccount(), { task: TASK, params: { amount: '300' }, mode: 'replay-only', checkTimeout: 300 });
  expect(unknown.status).toBe('diverged');
  expect(unknown.divergences[0]!.reason).toContain('tool "fillPayment" is not registered with this Rote');
  await other.close();
  expect(bank.payments.map((payment) => payment.amount)).toEqual(['250']);
});

bankTest('a secret passed to a tool or captured by its check is never stored, and still compares', async ({ bank, openAccount }) => {
  const dir = mkdtempSync(join(tmpdir(), 'rote-tools-'));
  const rote = await Rote.open({ store: join(dir, 'rote.db') });
  const calls: Record<string, unknown>[] = [];
  // The post-check reads the PIN field back: it holds the secret, so its capture does too.
  const pinFilled: Check<{ warning: string; pin: string }> = {
    capture: async ({ page }) => ({ warning: (await page.textContent('#warning')) ?? '', pin: await page.inputValue('input[name=pin]') }),
    compare: (current, recorded) => current.warning === recorded.warning && current.pin === recorded.pin,
  };
  rote.tool('fillPayment', fillPayment(calls), { preCheck: sameAccountType, postCheck: pinFilled });
  const recorder = payAgent();
  const recorded = await rote.run(await openAccount(), { task: TASK, params: { amount: '250', pin: secret('4321-first') }, agent: recorder });
  expect(recorded.status).toBe('agent');
  expect(calls[0]).toEqual({ amount: '250', pin: '4321-first' });
  expect(recorded.steps[0]!.action).toEqual({ type: 'tool', name: 'fillPayment', args: { amount: '250', pin: '********' } });

  const replayed = await rote.run(await openAccount(), { task: TASK, params: { amount: '300', pin: secret('9876-second') }, mode: 'replay-only' });
  expect(replayed.status, replayed.error).toBe('replayed');
  expect(calls.at(-1)).toEqual({ amount: '300', pin: '9876-second' });
  expect(bank.payments.map((payment) => payment.pin)).toEqual(['4321-first', '9876-second']);
  const nodes = JSON.stringify(await rote.store.subtree(recorded.taskKey, null, 10));
  expect(nodes).toContain('"pin":"{{pin}}"');
  await rote.close();
  const bytes = Buffer.concat(readdirSync(dir).map((name) => readFileSync(join(dir, name))));
  expect(bytes.includes('4321-first')).toBe(false);
  expect(bytes.includes('9876-second')).toBe(false);
});

import { test as base, expect, type Page } from '@playwright/test';
import type { BenchApp, BenchAppSpec, BenchParams } from '../bench/apps/contract.js';
import { gridSpec } from '../bench/apps/grid/spec.js';
import { intakeSpec } from '../bench/apps/intake/spec.js';
import { Rote } from '../src/rote.js';

/** The benchmark's legacy apps, for what the demo form cannot show: edit forms, native dialogs, new required fields. */
const test = base.extend<{ rote: Rote; use: (spec: BenchAppSpec) => Promise<{ app: BenchApp; run: (params: BenchParams, options?: { mode?: 'auto' | 'replay-only' }) => Promise<{ page: Page; result: Awaited<ReturnType<Rote['run']>> }> }> }>({
  rote: async ({}, use) => {
    const rote = await Rote.open({ store: ':memory:' });
    await use(rote);
    await rote.close();
  },
  use: async ({ rote, context }, use) => {
    const apps: BenchApp[] = [];
    await use(async (spec) => {
      const app = await spec.start();
      apps.push(app);
      return {
        app,
        run: async (params, options = {}) => {
          const page = await context.newPage();
          await page.goto(app.startUrl);
          const result = await rote.run(page, { task: spec.task, params, agent: spec.agent(page), checkTimeout: 1500, ...options });
          return { page, result };
        },
      };
    });
    for (const app of apps) await app.close();
  },
});

test('a value the recording never had to set (the box was already ticked) is still set for a customer who needs it', async ({ use }) => {
  const { app, run } = await use(gridSpec);
  const base = gridSpec.params(0);
  // Ana Silva is a VIP already: the agent leaves the box alone, so the recording never sets "vip".
  const recorded = await run({ ...base, customerName: 'Ana Silva', vip: true });
  expect(recorded.result.status).toBe('agent');
  expect(gridSpec.verify(app, { ...base, customerName: 'Ana Silva', vip: true })).toEqual([]);

  // Rui Silva is not: a blind replay would save him without VIP. rote must not.
  app.reset();
  const rui = { ...gridSpec.params(1), customerName: 'Rui Silva', vip: true };
  const { result } = await run(rui);
  expect(gridSpec.verify(app, rui)).toEqual([]);
  expect(result.status).toBe('mixed');
  expect(result.divergences[0]!.reason).toContain('parameter "vip"');

  // Helen Park is a VIP already too: the recorded path fits her as it is.
  app.reset();
  const helen = { ...gridSpec.params(2), customerName: 'Helen Park', vip: true };
  const again = await run(helen);
  expect(gridSpec.verify(app, helen)).toEqual([]);
  expect(again.result.agentCalls).toBeLessThanOrEqual(1);
});

test('a native confirm the recording never saw is dismissed, never accepted from the cache', async ({ use }) => {
  const { app, run } = await use(intakeSpec);
  await run(intakeSpec.params(0));
  app.reset();
  app.setPerturbation('confirmDialog');
  const { result } = await run(intakeSpec.params(1), { mode: 'replay-only' });
  expect(result.status).toBe('diverged');
  // Open while the Save click acted: whether the click landed cannot be shown, so nothing after it runs blind.
  expect(result.divergences.at(-1)!.reason).toContain('an unexpected confirm "Save these changes?" was open while step');
  expect(app.submissions).toHaveLength(0);

  // With the agent, the save goes through once the agent clicks Save itself; the next time, from the cache.
  const handed = await run(intakeSpec.params(2));
  expect(intakeSpec.verify(app, intakeSpec.params(2))).toEqual([]);
  expect(handed.result.status).toBe('mixed');
  app.reset();
  app.setPerturbation('confirmDialog');
  const learnt = await run(intakeSpec.params(3));
  expect(learnt.result.status).toBe('replayed');
  expect(intakeSpec.verify(app, intakeSpec.params(3))).toEqual([]);
});

test('a new required field stops the submit: the replay does not claim success, the agent finishes', async ({ use }) => {
  const { app, run } = await use(intakeSpec);
  const recorded = await run(intakeSpec.params(0));
  app.reset();
  app.setPerturbation('requiredField');
  const stopped = await run(intakeSpec.params(1), { mode: 'replay-only' });
  expect(stopped.result.status).toBe('diverged');
  expect(stopped.result.divergences.at(-1)!.reason).toMatch(/the recorded run ended here on .*\/saved/);
  expect(app.submissions).toHaveLength(0);

  const finished = await run(intakeSpec.params(2));
  expect(finished.result.status).toBe('mixed');
  // The agent ticks the new box and saves: a few calls, far fewer than doing the form.
  expect(finished.result.agentCalls).toBeLessThan(recorded.result.agentCalls / 2);
  expect(intakeSpec.verify(app, intakeSpec.params(2))).toEqual([]);
});

test('a dark theme fails the visual check and hands over; the themed steps are then replayed too', async ({ use }) => {
  const { app, run } = await use(intakeSpec);
  await run(intakeSpec.params(0));
  app.reset();
  app.setPerturbation('theme');
  const first = await run(intakeSpec.params(1));
  expect(first.result.divergences[0]!.reason).toContain('the target looks different');
  expect(intakeSpec.verify(app, intakeSpec.params(1))).toEqual([]);
  app.reset();
  app.setPerturbation('theme');
  const second = await run(intakeSpec.params(2));
  expect(intakeSpec.verify(app, intakeSpec.params(2))).toEqual([]);
  expect(second.result.agentCalls).toBeLessThan(first.result.agentCalls);
});

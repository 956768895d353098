import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, type Page } from '@playwright/test';
import type { AgentAnswer } from '../src/agent/agent.js';
import { reportPaths } from '../src/report/links.js';
import { writeReport } from '../src/report/writeReport.js';
import { appTest } from './support/appTest.js';
import { startChoicesApp, type ChoiceEvent } from './support/choicesApp.js';

/**
 * A value that no step shows may still decide what to do: how many times to press, which of two
 * buttons, whether to switch something on. A path learned under one value is followed only by a
 * run with the same value; where two recorded paths fit and nothing recorded tells them apart,
 * rote does not choose. Each page is recorded with one value, met with two others (handed over
 * and learned), then with every value again (each replayed from its own path, no agent call).
 */
const test = appTest(startChoicesApp);

type Fork = { path: string; task: string; param: string; values: [string, string, string]; right: (events: ChoiceEvent[], value: string) => boolean };

const FORKS: Fork[] = [
  {
    path: '/bell',
    task: 'Ring the front desk bell {{times}} times',
    param: 'times',
    values: ['2', '1', '3'],
    right: (events, value) => events.filter((event) => event.kind === 'ring').length === Number(value),
  },
  {
    path: '/shipping',
    task: 'Dispatch order 7 the {{speed}} way',
    param: 'speed',
    values: ['fast', 'cheap', 'eco'],
    right: (events, value) => events.length === 1 && events[0]!.kind === 'ship' && events[0]!.value === (value === 'fast' ? 'air' : 'ground'),
  },
  {
    path: '/ticket',
    task: 'Close ticket 31, notifying the customer when {{notify}} is y',
    param: 'notify',
    values: ['y', 'n', 'no'],
    right: (events, value) =>
      events.filter((event) => event.kind === 'notify').length === (value === 'y' ? 1 : 0) && events.at(-1)?.kind === 'close' && events.at(-1)!.value === String(value === 'y'),
  },
];

for (const fork of FORKS) {
  test(`${fork.path}: a value no step shows chooses the path; each value's own path replays, no other`, async ({ app, runOn }) => {
    const run = async (value: string) => {
      app.mark();
      const result = await runOn(fork.path, { task: fork.task, params: { [fork.param]: value } });
      return { result, events: app.since() };
    };
    const recorded = await run(fork.values[0]);
    expect(recorded.result.status, recorded.result.error).toBe('agent');
    expect(fork.right(recorded.events, fork.values[0]), JSON.stringify(recorded.events)).toBe(true);
    // Other values: the agent is asked (the value differs and no step shows it), and does it right.
    for (const value of fork.values.slice(1)) {
      const met = await run(value);
      expect(met.result.agentCalls, `${value}: ${met.result.status}`).toBeGreaterThan(0);
      expect(fork.right(met.events, value), `${value}: ${JSON.stringify(met.events)}`).toBe(true);
    }
    // Every value again, twice: its own path, from the cache.
    for (const value of [...fork.values, ...fork.values]) {
      const again = await run(value);
      expect(fork.right(again.events, value), `${value}: ${JSON.stringify(again.events)} (${again.result.status})`).toBe(true);
      expect({ value, status: again.result.status, agentCalls: again.result.agentCalls }).toEqual({ value, status: 'replayed', agentCalls: 0 });
    }
  });
}

test('two paths learned under the same values both fit: rote does not choose, it hands over and names the fork', async ({ app, runOn }) => {
  const task = 'Dispatch order 7';
  // Two recordings (record mode: a new branch from the start each time) under the same values, one by air and one by ground.
  const shipBy = (speed: string) => (at: Page) => ({ next: async () => (await at.evaluate(`window.__plan(${JSON.stringify({ speed })})`)) as AgentAnswer });
  await runOn('/shipping', { task, mode: 'record', agent: shipBy('fast') });
  await runOn('/shipping', { task, mode: 'record', agent: shipBy('cheap') });
  app.mark();
  const replayOnly = await runOn('/shipping', { task, mode: 'replay-only' });
  expect(replayOnly.status).toBe('diverged');
  expect(replayOnly.error).toMatch(/two recorded paths fit this page and this run's values: "Dispatch the order" on "(Air freight|Ground)" \(button, button\) or "Dispatch the order" on "(Air freight|Ground)"/);
  expect(replayOnly.error).toMatch(/they were learned under the same values, so nothing recorded tells which one this run needs/);
  expect(app.since()).toEqual([]);
  // In auto mode the agent decides. Its choice tells nothing new (the same values again), so the fork stays one.
  const auto = await runOn('/shipping', { task, agent: shipBy('fast') });
  expect(auto.divergences[0]?.reason).toMatch(/nothing recorded tells which one this run needs/);
  expect(app.since()).toEqual([{ page: '/shipping', kind: 'ship', value: 'air' }]);
  app.mark();
  expect((await runOn('/shipping', { task, mode: 'replay-only' })).status).toBe('diverged');
  expect(app.since()).toEqual([]);
});

test("the report names what chose each path, and the agent's observation carries the divergence", async ({ app, rote, runOn, page }, testInfo) => {
  const task = 'Ring the front desk bell {{times}} times';
  for (const times of ['2', '1', '2']) await runOn('/bell', { task, params: { times } });
  app.mark();
  const seen: (string | undefined)[] = [];
  const result = await runOn('/bell', {
    task,
    params: { times: '3' },
    agent: (at) => ({
      async next(observation) {
        seen.push(observation.divergence?.reason);
        return (await at.evaluate(`window.__plan(${JSON.stringify(observation.params)})`)) as AgentAnswer;
      },
    }),
  });
  expect(result.agentCalls).toBeGreaterThan(0);
  expect(seen[0]).toMatch(/parameter "times" is not put on the page by the recorded steps from here/);
  expect(result.divergences.map((divergence) => divergence.reason)).toContain(seen[0]);
  expect(app.since().filter((event) => event.kind === 'ring')).toHaveLength(3);
  const written = await writeReport(rote.store, {}, testInfo.outputPath('report'));
  await page.goto(pathToFileURL(join(written.dir, reportPaths.task(result.taskKey))).href);
  await expect(page.locator('[data-chosen-by="times"]').first()).toBeVisible();
  await expect(page.locator('#trajectory')).toContainText('ends the task only for the learned {{times}} (1 value)');
});

import { expect, test } from '@playwright/test';
import { runFaults } from '../bench/faults/run.js';

/**
 * The fault suite's fast subset (the whole suite: npm run faults): a kill in the middle of a
 * replay and of the daemon's batch, a page that reloads itself, a native dialog, a browser that
 * dies, bursts of 5xx and truncated answers from the model service. Each must end cleanly: the
 * store consistent and the next run replaying, a takeover or a clear failure, nothing wrong.
 */
test('the fault suite, fast subset: every fault ends cleanly, nothing lost, nothing wrong, no hang', async () => {
  test.setTimeout(300_000);
  const lines: string[] = [];
  const { summary, outcomes } = await runFaults({
    quick: true,
    seed: 20261124,
    root: process.cwd(),
    log: (line) => lines.push(line),
    only: ['crash: replay', 'crash: daemon', 'page: reloads itself', 'page: native dialog', 'page: browser dies', 'model: 5xx burst', 'model: truncated JSON'],
  });
  test.info().annotations.push({ type: 'faults', description: lines.join('\n') });
  expect(outcomes.filter((outcome) => !outcome.clean).map((outcome) => `${outcome.kind}: ${outcome.notes.join('; ')}`)).toEqual([]);
  expect(summary).toMatchObject({ injected: 7, clean: 7, lost: 0, wrong: 0, hangs: 0 });
});

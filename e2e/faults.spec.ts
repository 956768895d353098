import { expect, test } from '@playwright/test';
import { runFaults } from '../bench/faults/run.js';

/**
 * The fault suite's fast subset (the whole suite: npm run faults): a kill in the middle of a
 * replay and of the daemon's batch, a page that reloads itself, a native dialog, a browser that
 * dies, bursts of 5xx and truncated answers from the model service, an agent that never answers and
 * one that reads the page while a prompt holds it, with 20 seconds of load beside
 * the last five (four runs at once in two processes and a reader on the store). Each must end cleanly:
 * the store consistent and the next run replaying, a takeover or a clear failure, nothing wrong,
 * every loaded run recorded as its caller saw it.
 */
test('the fault suite, fast subset: every fault ends cleanly, nothing lost, nothing wrong, no hang', async () => {
  test.setTimeout(300_000);
  const lines: string[] = [];
  const { summary, outcomes } = await runFaults({
    quick: true,
    seed: 20261124,
    root: process.cwd(),
    log: (line) => lines.push(line),
    only: ['crash: replay', 'crash: daemon', 'page: reloads itself', 'page: native dialog', 'page: browser dies', 'model: 5xx burst', 'model: truncated JSON', 'agent: never returns', 'agent: reads the page while a prompt is open', 'load: '],
  });
  test.info().annotations.push({ type: 'faults', description: lines.join('\n') });
  expect(outcomes.filter((outcome) => !outcome.clean).map((outcome) => `${outcome.kind}: ${outcome.notes.join('; ')}`)).toEqual([]);
  expect(summary).toMatchObject({ clean: summary.injected, lost: 0, wrong: 0, hangs: 0 });
  // Nine faults, and the load's runs and reads (as many as 20 seconds hold) beside them.
  expect(summary.kinds.filter((row) => !row.kind.startsWith('load: ')).map((row) => row.injected)).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 1]);
  expect(summary.kinds.filter((row) => row.kind.startsWith('load: ')).map((row) => row.kind)).toEqual(['load: 2 runs at once + a reader', 'load: 2 more at once, second process', 'load: reads (rote runs, rote export)']);
  for (const row of summary.kinds.filter((candidate) => candidate.kind.startsWith('load: '))) expect(row.injected, row.kind).toBeGreaterThan(0);
});

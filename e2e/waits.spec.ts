import { expect } from '@playwright/test';
import type { RunOptions } from '../src/engine/runOptions.js';
import type { RunResult } from '../src/engine/runResult.js';
import { startCorpusApp, type CorpusApp } from './support/corpusApp.js';
import { appTest } from './support/appTest.js';

/**
 * Waits are conditions: a recording that waited for a progress indicator, a late label or a page
 * that took its time replays by waiting for what the page had to show, never for the time it took.
 */
type Run = (path: string, params: Record<string, string>, options?: Partial<Omit<RunOptions, 'agent'>>) => Promise<RunResult>;
const test = appTest(() => startCorpusApp(11)).extend<{ run: Run }>({
  run: async ({ runOn }, use) => use((path, params, options = {}) => runOn(path, { task: 'Index the book up to {{target}}%', params, ...options })),
});

const stoppedAt = (app: CorpusApp) => Number(app.submissions.at(-1)?.fields.stoppedAt);

test('a wait for a progress value replays as that value, on loads of every speed, with no agent call', async ({ app, run }) => {
  // Slow ticks: the bound below (5 ticks past where the recording stopped) is then a second of
  // reaction, which a busy 2-core machine keeps; at 40 ms a tick it measured the machine's load.
  app.set({ slowProgress: true });
  const recorded = await run('/progress', { target: '60' });
  expect(recorded.status).toBe('agent');
  const recordedStop = stoppedAt(app);
  expect(recordedStop).toBeGreaterThanOrEqual(60);
  for (let i = 0; i < 3; i++) {
    const before = app.submissions.length;
    const result = await run('/progress', { target: '60' });
    expect(result.status, JSON.stringify(result.divergences.map((d) => [d.step, d.intent, d.reason]))).toBe('replayed');
    expect(result.agentCalls).toBe(0);
    expect(app.submissions).toHaveLength(before + 1);
    // Stopped where the recording saw the value it acted on (the click itself took a tick or two then), never before the target.
    expect(stoppedAt(app)).toBeGreaterThanOrEqual(60);
    expect(stoppedAt(app)).toBeLessThanOrEqual(recordedStop + 5);
  }
});

test('a value the page never shows is never clicked through: replay-only diverges, auto hands over', async ({ app, run }) => {
  await run('/progress', { target: '60' });
  app.set({ progress: 'jumps' });
  for (let i = 0; i < 2; i++) {
    const before = app.submissions.length;
    const result = await run('/progress', { target: '60' }, { mode: 'replay-only' });
    if (result.status === 'replayed') expect(stoppedAt(app)).toBeGreaterThanOrEqual(60);
    else {
      expect(result.status).toBe('diverged');
      expect(result.divergences.at(-1)!.reason).toMatch(/(waiting for|the page went past what the recording waited for: expected) #progress to show "\d+%"/);
      expect(app.submissions).toHaveLength(before);
    }
  }
  for (let i = 0; i < 2; i++) {
    // The agent takes over where the value never showed (or the replay stops on it, when a jump lands there).
    const handed = await run('/progress', { target: '60' });
    expect(handed.status === 'replayed' || handed.agentCalls > 0).toBe(true);
    // Never stopped short of the target; where the agent stops past it is the agent's own timing.
    expect(stoppedAt(app)).toBeGreaterThanOrEqual(60);
  }
});

test('a run given 8 s whose next step waits for a state that never comes ends failed, naming the step and what it waited for', async ({ app, run }) => {
  await run('/progress', { target: '60' });
  app.set({ progress: 'stall' });
  // 8 s, so the steps before Stop are done well before the deadline on a busy machine too: the
  // deadline then falls while Stop waits, which is what this test is about.
  const result = await run('/progress', { target: '60' }, { timeout: 8000 });
  expect(result.status).toBe('failed');
  expect(result.error).toMatch(/timeout of 8000ms exceeded at step \d+ \(Stop\): waiting for #progress to show "\d+%"( and have aria-valuenow="\d+")? \(it shows "\d+%"\)/);
  // Bounded by the run's deadline plus the grace docs/agents.md states (3 s), not by any wait of its own.
  expect(result.durationMs).toBeLessThan(8000 + 3000);
  expect(app.submissions).toHaveLength(1);
});

test('a target that looks different when its wait is over is handed over at that moment, not after the process has run out', async ({ app, run }) => {
  // Slow ticks: from 60 % to 100 % is then 6 to 10 s, room for a hand-over at the recorded moment
  // on a busy machine, while waiting out the patience (twice the recorded wait) still runs to 100 %.
  app.set({ slowProgress: true });
  expect((await run('/progress', { target: '60' })).status).toBe('agent');
  app.set({ slowProgress: true, restyledStop: true });
  const handed = await run('/progress', { target: '60' });
  expect(handed.status).toBe('mixed');
  expect(handed.divergences[0]?.reason).toMatch(/looks different/);
  // Without the hand-over at the recorded moment, the patience the wait earned (twice the recorded
  // wait) would let the process run to 100% before the agent saw the page.
  expect(stoppedAt(app)).toBeGreaterThanOrEqual(60);
  expect(stoppedAt(app)).toBeLessThan(100);

  // The agent's detour is a sibling of the recorded Stop: the replay waits on the one whose target
  // passes, in one stretch, and stops where the detour stopped.
  const detourStop = stoppedAt(app);
  const replayed = await run('/progress', { target: '60' });
  expect(replayed.status, JSON.stringify(replayed.divergences.map((d) => [d.step, d.intent, d.reason]))).toBe('replayed');
  expect(stoppedAt(app)).toBeGreaterThanOrEqual(60);
  expect(stoppedAt(app)).toBeLessThanOrEqual(detourStop + 5);
});

test('a clock ticking beside the progress is not what the recording waited for', async ({ app, run }) => {
  app.set({ clock: true });
  await run('/progress', { target: '60' });
  for (let i = 0; i < 2; i++) {
    const result = await run('/progress', { target: '60' });
    expect(result.status, JSON.stringify(result.divergences.map((d) => [d.step, d.intent, d.reason]))).toBe('replayed');
    expect(stoppedAt(app)).toBeGreaterThanOrEqual(60);
  }
});

test('a paragraph that appears seconds after a click is waited for and clicked from the cache, though another paragraph is on the page', async ({ app, run }) => {
  await run('/ajax', { target: '0' });
  for (let i = 0; i < 2; i++) {
    const result = await run('/ajax', { target: '0' });
    expect(result.status, JSON.stringify(result.divergences.map((d) => d.reason))).toBe('replayed');
    expect(app.submissions.at(-1)!.fields.clicked).toBe('label');
  }
});

test('a label that appears late is waited for, and its field filled from the cache', async ({ app, run }) => {
  await run('/late', { notes: 'First note', target: '0' });
  for (let i = 0; i < 2; i++) {
    const result = await run('/late', { notes: `Note number ${i}`, target: '0' });
    expect(result.status, JSON.stringify(result.divergences.map((d) => [d.step, d.intent, d.reason]))).toBe('replayed');
    expect(app.submissions.at(-1)!.fields.notes).toBe(`Note number ${i}`);
  }
});

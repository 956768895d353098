import { describe, expect, it } from 'vitest';
import type { Observation } from '../agent.js';
import { RunBudget, RunTracker } from './runState.js';

const base: Observation = {
  runId: 'run-1',
  deadline: Number.MAX_SAFE_INTEGER,
  task: 't',
  params: { a: '1' },
  screenshot: Buffer.alloc(0),
  url: 'http://127.0.0.1/',
  viewport: { width: 10, height: 10 },
  history: [{ action: { type: 'type', text: 'x' }, kind: 'cached' }],
  tools: [],
};
const click = { type: 'click' as const, x: 1, y: 1, button: 'left' as const };

describe('RunTracker', () => {
  it('tells the next call of a run from a new run', () => {
    const tracker = new RunTracker();
    expect(tracker.continues(base)).toBe(false);
    tracker.remember(base, 1);
    expect(tracker.continues({ ...base, history: [...base.history, { action: click, kind: 'agent' }] })).toBe(true);
    // The same steps replayed in another run: the step after the answer is a cached one.
    expect(tracker.continues({ ...base, history: [...base.history, { action: click, kind: 'cached' }] })).toBe(false);
    expect(tracker.continues({ ...base, history: [] })).toBe(false);
    expect(tracker.continues({ ...base, params: { a: '2' }, history: [...base.history, { action: click, kind: 'agent' }] })).toBe(false);
    tracker.forget();
    expect(tracker.continues({ ...base, history: [...base.history, { action: click, kind: 'agent' }] })).toBe(false);
  });
  it('goes on when the action it asked for opened a prompt, though that step is not in the history yet', () => {
    const tracker = new RunTracker();
    tracker.remember(base, 1);
    const prompt = { type: 'prompt' as const, message: 'Name?', defaultValue: '' };
    expect(tracker.continues({ ...base, dialog: prompt })).toBe(true);
    // Without a prompt, the same history means the engine did not do what the model asked.
    expect(tracker.continues(base)).toBe(false);
  });
  it('takes another run id for a new run, even when everything else would continue', () => {
    const tracker = new RunTracker();
    tracker.remember(base, 1);
    expect(tracker.continues({ ...base, runId: 'run-2', history: [...base.history, { action: click, kind: 'agent' }] })).toBe(false);
  });
});

describe('RunBudget', () => {
  it('stops at the model-call and token budgets', () => {
    let requests = 0;
    const budget = new RunBudget('agent', { maxModelCalls: 2, maxTokens: 100 }, () => requests);
    budget.checkBeforeRequest();
    requests = 2;
    expect(() => budget.checkBeforeRequest()).toThrow('the budget of 2 model calls for this run is spent');
    budget.reset();
    budget.add({ inputTokens: 90, outputTokens: 10 });
    expect(() => budget.checkBeforeRequest()).toThrow('the budget of 100 tokens for this run is spent (100 used)');
    expect(budget.usage).toEqual({ modelCalls: 0, inputTokens: 90, outputTokens: 10 });
  });
});

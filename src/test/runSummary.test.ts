import { describe, expect, it } from 'vitest';
import type { RunResult } from '../engine/runResult.js';
import { describeOutcome, runReport } from './runSummary.js';

const base: RunResult = {
  runId: 'r1',
  status: 'replayed',
  task: 'Register patient {{firstName}}',
  taskKey: 'k',
  steps: [],
  cachedSteps: 0,
  relocatedSteps: 0,
  agentSteps: 0,
  agentCalls: 0,
  usage: { modelCalls: 0, inputTokens: 0, outputTokens: 0 },
  divergences: [],
  durationMs: 10,
  time: { replayed: 6, checks: 3, waits: 0, agent: 0, other: 1 },
};
const png = Buffer.from('png');

describe('describeOutcome', () => {
  it('names the step from 1, its intent and the reason of a divergence', () => {
    const result: RunResult = { ...base, status: 'diverged', divergences: [{ step: 2, intent: 'Fill "Date of birth"', reason: "the target looks different: 12.4% of the target's pixels differ from the recording" }] };
    expect(describeOutcome(result)).toBe(`it diverged at step 3 (Fill "Date of birth"): the target looks different: 12.4% of the target's pixels differ from the recording`);
  });

  it('falls back to the action when the step has no intent, and to the error without a divergence', () => {
    const result: RunResult = { ...base, status: 'diverged', divergences: [{ step: 0, action: { type: 'keypress', keys: ['ENTER'] }, reason: 'gone' }] };
    expect(describeOutcome(result)).toBe('it diverged at step 1 (keypress ENTER): gone');
    expect(describeOutcome({ ...base, status: 'failed', error: 'rote.run("x"): the deadline passed\nSteps that ran:\n  (none)' })).toBe('it failed: rote.run("x"): the deadline passed');
  });

  it('says how much the agent did in a mixed run and where it took over', () => {
    const result: RunResult = { ...base, status: 'mixed', agentCalls: 1, agentSteps: 1, steps: [{}, {}, {}] as RunResult['steps'], divergences: [{ step: 0, intent: 'Fill "First name"', reason: 'covered' }] };
    expect(describeOutcome(result)).toBe('the agent did 1 of its 3 steps (1 agent call, status mixed); the first hand-over was at step 1 (Fill "First name"): covered');
  });
});

describe('runReport', () => {
  it('lists each divergence with the images attached for it, then the run error', () => {
    const result: RunResult = { ...base, status: 'diverged', error: 'rote.run: step 1 diverged', divergences: [{ step: 0, intent: 'Fill "First name"', reason: 'covered', expected: png, actual: png, diff: png }] };
    expect(runReport(result)).toBe(
      'rote.run("Register patient {{firstName}}"): diverged\n' +
        'Expected a replay from the cache, but it diverged at step 1 (Fill "First name"): covered.\n' +
        '- step 1 (Fill "First name"): covered [attached: expected, actual, diff]\n' +
        '\n' +
        'rote.run: step 1 diverged\n',
    );
  });
});

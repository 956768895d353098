import { describe, expect, it } from 'vitest';
import type { ReportRun, ReportStepKind } from './reportModel.js';
import { median, totalsOf } from './totals.js';

let next = 0;
function run(status: ReportRun['status'], kinds: ReportStepKind[], extra: Partial<ReportRun> = {}): ReportRun {
  const steps = kinds.map((kind, index) => ({ index, kind, action: 'click (1, 1)', intent: null, target: null, durationMs: 10, thumb: null, page: null }));
  const counts = { cached: 0, relocated: 0, agent: 0, rejoined: 0 };
  for (const kind of kinds) counts[kind]++;
  return { id: `run-${next++}`, task: 'Do it', taskId: 'key', mode: 'auto', status, startedAt: Date.UTC(2026, 10, 1), durationMs: 1000, agentCalls: 0, modelCalls: 0, tokens: 0, error: null, screenshot: null, steps, divergences: [], dialogs: [], counts, schedules: [], values: null, time: null, ...extra };
}

describe('totalsOf', () => {
  it('estimates agent-only calls from the agent runs seen, and the share replayed from the runs that ended', () => {
    const totals = totalsOf([
      // The agent alone: 4 steps in 3 calls (two actions in one answer, and the call that says done).
      run('agent', ['agent', 'agent', 'agent', 'agent'], { agentCalls: 3, durationMs: 8000 }),
      run('replayed', ['cached', 'cached', 'cached', 'cached'], { durationMs: 1000 }),
      run('replayed', ['cached', 'cached', 'cached', 'cached'], { durationMs: 2000 }),
      run('mixed', ['agent', 'rejoined', 'cached', 'cached'], { agentCalls: 1 }),
      run('interrupted', ['cached']),
    ]);
    expect(totals.runs).toBe(5);
    expect(totals.ended).toBe(4);
    expect(totals.replayedShare).toBe(0.5);
    expect(totals.steps).toEqual({ cached: 11, relocated: 0, agent: 5, rejoined: 1 });
    expect(totals.agentCalls).toBe(4);
    expect(totals.callsPerStep).toBe(0.75);
    expect(totals.agentOnlyBasis).toBe('observed');
    // 17 steps (the interrupted run's one counts: it was work done) at 0.75 calls per step.
    expect(totals.agentOnlyCalls).toBe(Math.round(17 * 0.75));
    expect(totals.agentOnlyTokens).toBeNull();
    expect(totals.medianReplayedMs).toBe(1500);
    expect(totals.medianAgentMs).toBe(8000);
  });

  it('counts one call per step when no run was the agent alone, and tokens at the rate seen', () => {
    const totals = totalsOf([run('mixed', ['agent', 'cached'], { agentCalls: 2, modelCalls: 2, tokens: 3000 }), run('replayed', ['cached', 'cached'])]);
    expect(totals.agentOnlyBasis).toBe('one call per step');
    expect(totals.agentOnlyCalls).toBe(4);
    expect(totals.agentOnlyTokens).toBe(6000);
  });

  it('ranks the tasks and steps that diverge most, with the latest reason', () => {
    const divergence = (nodeId: string, reason: string) => ({ index: 0, nodeId, action: 'click (1, 1)', intent: `step ${nodeId}`, target: null, reason, expected: null, actual: null, diff: null });
    const totals = totalsOf([
      run('diverged', [], { divergences: [divergence('a', 'old')], startedAt: 1 }),
      run('diverged', [], { divergences: [divergence('a', 'new')], startedAt: 2 }),
      run('mixed', ['agent'], { divergences: [divergence('b', 'other')], startedAt: 3, agentCalls: 1 }),
    ]);
    expect(totals.divergentTasks).toEqual([{ taskId: 'key', task: 'Do it', divergences: 3, runs: 3 }]);
    expect(totals.divergentSteps.map((step) => [step.step, step.divergences, step.lastReason])).toEqual([
      ['step a', 2, 'new'],
      ['step b', 1, 'other'],
    ]);
  });

  it('adds up where the time went over the runs that kept it, each part with its share of their time', () => {
    const totals = totalsOf([
      run('replayed', ['cached'], { time: { replayed: 600, checks: 300, waits: 0, agent: 0, other: 100 } }),
      run('mixed', ['agent', 'rejoined'], { agentCalls: 1, time: { replayed: 200, checks: 100, waits: 500, agent: 2000, other: 200 } }),
      // Stored before runs kept their time: left out, not counted as nothing spent.
      run('replayed', ['cached']),
    ]);
    expect(totals.time).toEqual({
      runs: 2,
      totalMs: 4000,
      ms: { replayed: 800, checks: 400, waits: 500, agent: 2000, other: 300 },
      share: { replayed: 0.2, checks: 0.1, waits: 0.125, agent: 0.5, other: 0.075 },
    });
  });

  it('has no time split where no run kept its time, and no share of time where none was spent', () => {
    expect(totalsOf([run('replayed', ['cached'])]).time).toBeNull();
    expect(totalsOf([run('failed', [], { time: { replayed: 0, checks: 0, waits: 0, agent: 0, other: 0 } })]).time).toMatchObject({ runs: 1, totalMs: 0, share: { replayed: 0, other: 0 } });
  });

  it('has no share and no medians without runs', () => {
    const totals = totalsOf([]);
    expect(totals.time).toBeNull();
    expect(totals.replayedShare).toBeNull();
    expect(totals.medianReplayedMs).toBeNull();
    expect(median([null, 3, 1])).toBe(2);
  });
});

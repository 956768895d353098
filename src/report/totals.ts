import type { RunStatus } from '../store/columnValues.js';
import { reportStepKinds, type ReportRun, type ReportStepKind } from './reportModel.js';
import { timeSplitOf, type TimeSplit } from './timeSplit.js';

/**
 * The figures a manager asks for, from the runs of a report. "Agent-only" figures are estimates of
 * what the same steps would have cost with the agent doing every one, from what the agent cost
 * where it did work in these runs: calls per agent step (its answers may hold several actions, and
 * an agent-only run ends with one more call to say it is done), tokens per call.
 */
export type Totals = {
  runs: number;
  byStatus: Record<RunStatus, number>;
  /** Runs that ended (not running or interrupted). */
  ended: number;
  /** Of the ended runs, the share replayed with no agent call (0..1); null with no ended run. */
  replayedShare: number | null;
  steps: Record<ReportStepKind, number>;
  agentCalls: number;
  tokens: number;
  /** Agent calls the same runs' steps would have taken with the agent alone. */
  agentOnlyCalls: number;
  /** Agent calls per step of the agent working alone (what agentOnlyCalls is estimated with). */
  callsPerStep: number;
  /** How agentOnlyCalls was found: from agent-only runs seen here, or one call per step when there were none. */
  agentOnlyBasis: 'observed' | 'one call per step';
  /** Tokens of agentOnlyCalls at the tokens per call seen here; null where no agent reported tokens. */
  agentOnlyTokens: number | null;
  /** Median duration of runs replayed from the cache, and of runs the agent did alone; null without such runs. */
  medianReplayedMs: number | null;
  medianAgentMs: number | null;
  /** Where the time went, over the runs that kept their time (runs stored before it was kept have none); null where none did. */
  time: TimeSplit | null;
  /** The tasks and the recorded steps whose cached step could not be shown safe most often. */
  divergentTasks: { taskId: string | null; task: string; divergences: number; runs: number }[];
  divergentSteps: { taskId: string | null; task: string; nodeId: string | null; step: string; divergences: number; lastReason: string }[];
};

const LIST_LENGTH = 10;

export function totalsOf(runs: readonly ReportRun[]): Totals {
  const byStatus: Record<RunStatus, number> = { running: 0, replayed: 0, mixed: 0, agent: 0, diverged: 0, failed: 0, interrupted: 0 };
  for (const run of runs) byStatus[run.status]++;
  const ended = runs.length - byStatus.running - byStatus.interrupted;
  const steps = Object.fromEntries(reportStepKinds.map((kind) => [kind, runs.reduce((sum, run) => sum + run.counts[kind], 0)])) as Record<ReportStepKind, number>;
  const agentCalls = sum(runs.map((run) => run.agentCalls));
  const tokens = sum(runs.map((run) => run.tokens));

  // Calls per step of the agent working alone: runs where it did every step, done-call included.
  const agentRuns = runs.filter((run) => run.status === 'agent' && run.steps.length > 0);
  const agentRunSteps = sum(agentRuns.map((run) => run.steps.length));
  const callsPerStep = agentRunSteps > 0 ? sum(agentRuns.map((run) => run.agentCalls)) / agentRunSteps : 1;
  const countedRuns = runs.filter((run) => run.status !== 'running' && run.steps.length > 0);
  const agentOnlyCalls = Math.round(sum(countedRuns.map((run) => run.steps.length)) * callsPerStep);
  const reporting = runs.filter((run) => run.modelCalls > 0 && run.tokens > 0);
  const tokensPerCall = reporting.length > 0 ? sum(reporting.map((run) => run.tokens)) / sum(reporting.map((run) => run.agentCalls)) : null;

  return {
    runs: runs.length,
    byStatus,
    ended,
    replayedShare: ended > 0 ? byStatus.replayed / ended : null,
    steps,
    agentCalls,
    tokens,
    agentOnlyCalls,
    callsPerStep,
    agentOnlyBasis: agentRunSteps > 0 ? 'observed' : 'one call per step',
    agentOnlyTokens: tokensPerCall === null ? null : Math.round(agentOnlyCalls * tokensPerCall),
    medianReplayedMs: median(runs.filter((run) => run.status === 'replayed').map((run) => run.durationMs)),
    medianAgentMs: median(runs.filter((run) => run.status === 'agent').map((run) => run.durationMs)),
    time: timeSplitOf(runs.flatMap((run) => (run.time ? [run.time] : []))),
    divergentTasks: divergentTasks(runs),
    divergentSteps: divergentSteps(runs),
  };
}

function divergentTasks(runs: readonly ReportRun[]): Totals['divergentTasks'] {
  const byTask = new Map<string, Totals['divergentTasks'][number]>();
  for (const run of runs) {
    if (run.divergences.length === 0) continue;
    const key = run.taskId ?? run.task;
    const entry = byTask.get(key) ?? { taskId: run.taskId, task: run.task, divergences: 0, runs: 0 };
    entry.divergences += run.divergences.length;
    entry.runs++;
    byTask.set(key, entry);
  }
  return [...byTask.values()].sort((a, b) => b.divergences - a.divergences || a.task.localeCompare(b.task)).slice(0, LIST_LENGTH);
}

function divergentSteps(runs: readonly ReportRun[]): Totals['divergentSteps'] {
  const byStep = new Map<string, Totals['divergentSteps'][number] & { at: number }>();
  for (const run of runs) {
    for (const divergence of run.divergences) {
      const key = `${run.taskId ?? run.task}\u0000${divergence.nodeId ?? divergence.action ?? `#${divergence.index}`}`;
      const entry = byStep.get(key) ?? { taskId: run.taskId, task: run.task, nodeId: divergence.nodeId, step: divergence.intent ?? divergence.action ?? `after step ${divergence.index}`, divergences: 0, lastReason: divergence.reason, at: 0 };
      entry.divergences++;
      if (run.startedAt >= entry.at) {
        entry.at = run.startedAt;
        entry.lastReason = divergence.reason;
      }
      byStep.set(key, entry);
    }
  }
  return [...byStep.values()]
    .sort((a, b) => b.divergences - a.divergences || b.at - a.at)
    .slice(0, LIST_LENGTH)
    .map(({ at: _at, ...entry }) => entry);
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

export function median(values: readonly (number | null)[]): number | null {
  const known = values.filter((value): value is number => value !== null).sort((a, b) => a - b);
  if (known.length === 0) return null;
  const middle = Math.floor(known.length / 2);
  return known.length % 2 === 1 ? known[middle]! : (known[middle - 1]! + known[middle]!) / 2;
}

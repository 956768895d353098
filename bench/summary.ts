import { CHECK_NAMES, type CheckName } from '../src/engine/checkTimes.js';
import type { RunTime } from '../src/engine/runTime.js';
import type { CellResult } from './cells.js';
import type { LookupFigures } from './lookup.js';
import type { TimingPair } from './run.js';
import { median, quantile, round } from './stats.js';

export type Figure = { value: number; target: string; met: boolean };

export type Summary = {
  cells: number;
  expectationsMet: number;
  wrongActions: Figure;
  hitRate: Figure & { hits: number; shouldHit: number };
  agentCalls: Figure & { withRote: number; agentOnly: number };
  replayOverPlain: Figure & { pairs: number };
  /**
   * Checks per cached step over every cell, and `alone`: over the timing pairs' replays only, which
   * run one at a time on the machine (the perturbation cells run the four apps side by side).
   */
  checkOverheadMs: { median: number; p90: number; steps: number; alone: { median: number; p90: number; steps: number } };
  /** What each check costs a cached step, over the steps it ran on (every cell): median and p90, ms. */
  checkCosts: CheckCost[];
  /** A cached step's action and the settling after it: median and p90, ms. */
  actMs: { median: number; p90: number };
  /** Where the replays of the timing pairs spent their time, summed over them, in ms (outside: planning and the commit). */
  replayTime: RunTime & { outside: number };
  lookupMs: Figure & { p50: number; p99: number; trajectories: number };
  bytesPerStep: Figure;
};

export type CheckCost = { check: CheckName; steps: number; median: number; p90: number };

/** Each check's cost per cached step, over the steps it ran on, in CHECK_NAMES order. */
export function checkCostsOf(cells: readonly CellResult[]): CheckCost[] {
  const steps = cells.flatMap((cell) => cell.checkTimes);
  return CHECK_NAMES.flatMap((check) => {
    const spent = steps.flatMap((times) => (times[check] === undefined ? [] : [times[check]!]));
    return spent.length === 0 ? [] : [{ check, steps: spent.length, median: round(median(spent)), p90: round(quantile(spent, 0.9)) }];
  });
}

function replayTimeOf(cells: readonly CellResult[]): RunTime & { outside: number } {
  const total = { replayed: 0, checks: 0, waits: 0, agent: 0, other: 0, outside: 0 };
  for (const cell of cells.filter((candidate) => candidate.cell === 'new-values')) {
    for (const part of Object.keys(total) as (keyof typeof total)[]) total[part] += cell.time[part];
  }
  return total;
}

export function summarize(cells: CellResult[], pairs: TimingPair[], lookup: LookupFigures, bytesPerStep: number): Summary {
  const wrong = cells.reduce((total, cell) => total + cell.wrongActions, 0);
  const shouldHit = cells.filter((cell) => cell.expected === 'hit' || cell.expected === 'relocated');
  const hits = shouldHit.filter((cell) => cell.status === 'replayed' && cell.agentCalls === 0 && cell.success).length;
  const hitRate = shouldHit.length > 0 ? hits / shouldHit.length : 0;
  // The recording itself is an agent-only run by definition; the matrix is everything after it.
  const matrix = cells.filter((cell) => cell.cell !== 'record');
  const withRote = matrix.reduce((total, cell) => total + cell.agentCalls, 0);
  const agentOnly = matrix.reduce((total, cell) => total + (cell.agentOnlyCalls ?? 0), 0);
  const callShare = agentOnly > 0 ? withRote / agentOnly : 0;
  const ratio = median(pairs.map((pair) => pair.ratio));
  const checks = cells.flatMap((cell) => cell.checkMs);
  const alone = cells.filter((cell) => cell.cell === 'new-values').flatMap((cell) => cell.checkMs);
  return {
    cells: cells.length,
    expectationsMet: cells.filter((cell) => cell.met).length,
    wrongActions: { value: wrong, target: '0', met: wrong === 0 },
    hitRate: { value: round(hitRate * 100), target: '>= 95%', met: hitRate >= 0.95, hits, shouldHit: shouldHit.length },
    agentCalls: { value: round(callShare * 100), target: '<= 10% of agent-only', met: callShare <= 0.1, withRote, agentOnly },
    replayOverPlain: { value: round(ratio, 2), target: '<= 2.0', met: ratio <= 2, pairs: pairs.length },
    checkOverheadMs: { median: median(checks), p90: quantile(checks, 0.9), steps: checks.length, alone: { median: median(alone), p90: quantile(alone, 0.9), steps: alone.length } },
    checkCosts: checkCostsOf(cells),
    actMs: { median: median(cells.flatMap((cell) => cell.actMs)), p90: quantile(cells.flatMap((cell) => cell.actMs), 0.9) },
    replayTime: replayTimeOf(cells),
    lookupMs: { value: lookup.p99Ms, target: 'p99 < 5 ms', met: lookup.p99Ms < 5, p50: lookup.p50Ms, p99: lookup.p99Ms, trajectories: lookup.trajectories },
    bytesPerStep: { value: Math.round(bytesPerStep), target: '<= 30 KB', met: bytesPerStep <= 30 * 1024 },
  };
}

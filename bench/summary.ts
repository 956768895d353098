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
  checkOverheadMs: { median: number; p90: number; steps: number };
  lookupMs: Figure & { p50: number; p99: number; trajectories: number };
  bytesPerStep: Figure;
};

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
  return {
    cells: cells.length,
    expectationsMet: cells.filter((cell) => cell.met).length,
    wrongActions: { value: wrong, target: '0', met: wrong === 0 },
    hitRate: { value: round(hitRate * 100), target: '>= 95%', met: hitRate >= 0.95, hits, shouldHit: shouldHit.length },
    agentCalls: { value: round(callShare * 100), target: '<= 10% of agent-only', met: callShare <= 0.1, withRote, agentOnly },
    replayOverPlain: { value: round(ratio, 2), target: '<= 2.0', met: ratio <= 2, pairs: pairs.length },
    checkOverheadMs: { median: median(checks), p90: quantile(checks, 0.9), steps: checks.length },
    lookupMs: { value: lookup.p99Ms, target: 'p99 < 5 ms', met: lookup.p99Ms < 5, p50: lookup.p50Ms, p99: lookup.p99Ms, trajectories: lookup.trajectories },
    bytesPerStep: { value: Math.round(bytesPerStep), target: '<= 30 KB', met: bytesPerStep <= 30 * 1024 },
  };
}

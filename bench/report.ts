import { formatTable } from '../src/cli/table.js';
import type { BenchResults } from './run.js';

/** The benchmark's tables, as printed and as pasted into docs/performance.md. */
export function printReport(results: BenchResults, say: (line: string) => void): void {
  say(
    formatTable(
      ['app', 'cell', '#', 'expected', 'status', 'ok', 'wrong', 'cached', 'reloc', 'agent', 'calls', 'agent-only', 'ms'],
      results.cells.map((cell) => [
        cell.app,
        cell.cell,
        cell.meeting,
        cell.expected,
        cell.status,
        cell.met ? 'yes' : 'NO',
        cell.wrongActions,
        cell.cachedSteps,
        cell.relocatedSteps,
        cell.agentSteps,
        cell.agentCalls,
        cell.agentOnlyCalls ?? 0,
        cell.wallMs,
      ]),
    ),
  );
  say('');
  for (const cell of results.cells.filter((candidate) => !candidate.met)) {
    say(`not as expected: ${cell.app}/${cell.cell} #${cell.meeting}: ${[cell.divergence, ...cell.problems].filter(Boolean).join('; ')}`);
  }
  const s = results.summary;
  const mark = (met: boolean) => (met ? 'met' : 'MISSED');
  say(
    formatTable(
      ['figure', 'value', 'target', ''],
      [
        ['wrong actions (destructive clicks + wrong submissions)', String(s.wrongActions.value), s.wrongActions.target, mark(s.wrongActions.met)],
        ['hit rate on cells that should hit', `${s.hitRate.value}% (${s.hitRate.hits}/${s.hitRate.shouldHit})`, s.hitRate.target, mark(s.hitRate.met)],
        ['agent calls with rote / agent-only', `${s.agentCalls.value}% (${s.agentCalls.withRote}/${s.agentCalls.agentOnly})`, s.agentCalls.target, mark(s.agentCalls.met)],
        ['replay time / plain script (median of pairs)', `${s.replayOverPlain.value} (${s.replayOverPlain.pairs} pairs)`, s.replayOverPlain.target, mark(s.replayOverPlain.met)],
        ['check overhead per step, ms', `median ${s.checkOverheadMs.median}, p90 ${s.checkOverheadMs.p90}`, '', ''],
        ['  in the timing pairs alone, ms', `median ${s.checkOverheadMs.alone.median}, p90 ${s.checkOverheadMs.alone.p90}`, '', ''],
        [`cache lookup, ${s.lookupMs.trajectories.toLocaleString('en')} trajectories, ms`, `p50 ${s.lookupMs.p50}, p99 ${s.lookupMs.p99}`, s.lookupMs.target, mark(s.lookupMs.met)],
        ['bytes stored per step', `${(s.bytesPerStep.value / 1024).toFixed(1)} KB`, s.bytesPerStep.target, mark(s.bytesPerStep.met)],
        ['cells as expected', `${s.expectationsMet}/${s.cells}`, 'all', mark(s.expectationsMet === s.cells)],
      ],
    ),
  );
  say('');
  say(
    formatTable(
      ['check before a cached step', 'steps it ran on', 'median ms', 'p90 ms'],
      [...s.checkCosts.map((cost) => [cost.check, cost.steps, cost.median, cost.p90]), ['(the action and settling after it)', s.checkOverheadMs.steps, s.actMs.median, s.actMs.p90]],
    ),
  );
  const time = s.replayTime;
  const whole = Object.values(time).reduce((total, ms) => total + ms, 0);
  const share = (ms: number) => `${((ms / Math.max(1, whole)) * 100).toFixed(0)}%`;
  say(`replays of the timing pairs, where the time went: replayed steps ${share(time.replayed)}, checks ${share(time.checks)}, waits ${share(time.waits)}, agent ${share(time.agent)}, other ${share(time.other)}, outside the run (planning, commit) ${share(time.outside)}`);
  say('');
  say(
    formatTable(
      ['batch (demo app, replayed)', 'rows', 'replayed', 'right on server', 'rows/min', 'plain script rows/min', 'peak memory, MiB'],
      results.batch.levels.map((level) => [`concurrency ${level.concurrency}`, level.rows, level.replayed, level.rightOnServer, level.rowsPerMinute, level.plainRowsPerMinute, level.peakTreeMiB]),
    ),
  );
  say(`memory per extra context: about ${results.batch.perExtraContextMiB} MiB (process tree idle: ${results.batch.idleTreeMiB} MiB)`);
  const report = results.report;
  say(
    `report of ${report.runs.toLocaleString('en')} runs (copied from ${report.sourceRuns.length} real runs: ${report.sourceRuns.join(', ')}): ${(report.bytes / 2 ** 20).toFixed(1)} MiB in ${report.files} files, written in ${report.writeMs} ms; ` +
      `headless Chromium paints the overview in ${report.firstPaintMs} ms (median of ${report.loads} loads, target < 2000 ms: ${report.firstPaintMs < 2000 ? 'met' : 'MISSED'}), load event at ${report.loadMs} ms; pictures kept for the report: ${(report.pictureBytesPerRunStep / 1024).toFixed(1)} KB per run step`,
  );
  say(`measured ${results.measuredAt} on ${results.machine.cpus} x ${results.machine.cpuModel}, ${results.machine.memoryGiB} GiB, Node ${results.machine.node}, ${results.machine.platform}: ${results.command}`);
}

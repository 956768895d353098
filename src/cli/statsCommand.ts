import { RUN_TIME_PARTS } from '../engine/runTime.js';
import { loadReport } from '../report/reportModel.js';
import { TIME_PART_LABELS } from '../report/timeSplit.js';
import { totalsOf, type Totals } from '../report/totals.js';
import { reportFilterOf, type ReportFilterOptions } from './reportFilter.js';
import { openExistingStore } from './storeArgument.js';
import { formatTable } from './table.js';

export type StatsCommandOptions = ReportFilterOptions & { store: string; json?: boolean };

/** `rote stats`: the report's totals in the terminal. */
export async function statsCommand(options: StatsCommandOptions): Promise<number> {
  const store = await openExistingStore(options.store, 'stats');
  try {
    const model = await loadReport(store, await reportFilterOf(store, options, 'stats'));
    const totals = totalsOf(model.runs);
    // What rote proxy served (over every key: the filters are the runs'), none of it a run.
    const proxy = await store.conversations.totals();
    if (options.json) {
      process.stdout.write(`${JSON.stringify({ scope: model.scope, ...totals, proxy })}\n`);
      return 0;
    }
    process.stdout.write(`${describeTotals(totals, model.scope)}\n`);
    if (proxy.nodes > 0) process.stdout.write(`Proxy (rote proxy, every key): ${proxy.hits} requests served from the store, ${proxy.tokensSaved} tokens saved; ${proxy.replies} replies stored over ${proxy.nodes} messages\n`);
    return 0;
  } finally {
    await store.close();
  }
}

/** Where the time went, in seconds then shares, over the runs that kept it (runs stored before rote kept it have none). */
function describeTime(totals: Totals): string {
  const { time } = totals;
  if (!time) return '- (no run here kept its time)';
  const seconds = RUN_TIME_PARTS.map((part) => `${(time.ms[part] / 1000).toFixed(1)} s`).join(' / ');
  const shares = RUN_TIME_PARTS.map((part) => `${(time.share[part] * 100).toFixed(1)}%`).join(' / ');
  const over = time.runs === totals.runs ? `${time.runs} run${time.runs === 1 ? '' : 's'}` : `${time.runs} of ${totals.runs} runs kept it`;
  return `${seconds} (${shares}; ${over})`;
}

export function describeTotals(totals: Totals, scope: string): string {
  const share = (value: number | null) => (value === null ? '-' : `${(value * 100).toFixed(1)}%`);
  const ms = (value: number | null) => (value === null ? '-' : `${Math.round(value)} ms`);
  const lines = [
    `Runs: ${scope}`,
    formatTable(
      ['figure', 'value'],
      [
        ['runs', String(totals.runs)],
        ['by status', Object.entries(totals.byStatus).filter(([, count]) => count > 0).map(([status, count]) => `${status} ${count}`).join(', ') || '-'],
        ['fully replayed (of ended runs)', `${share(totals.replayedShare)} (${totals.byStatus.replayed} of ${totals.ended})`],
        ['steps: cached / relocated / agent / re-joined', `${totals.steps.cached} / ${totals.steps.relocated} / ${totals.steps.agent} / ${totals.steps.rejoined}`],
        ['agent calls / agent-only estimate', `${totals.agentCalls} / ${totals.agentOnlyCalls} (${totals.agentOnlyBasis === 'observed' ? `${totals.callsPerStep.toFixed(2)} calls per step, as agent runs here took` : 'one call per step'})`],
        ['tokens / agent-only estimate', totals.agentOnlyTokens === null ? `${totals.tokens} / - (no agent reported tokens)` : `${totals.tokens} / ${totals.agentOnlyTokens}`],
        ['median time: replayed run / agent run', `${ms(totals.medianReplayedMs)} / ${ms(totals.medianAgentMs)}`],
        [`time: ${RUN_TIME_PARTS.map((part) => TIME_PART_LABELS[part]).join(' / ')}`, describeTime(totals)],
      ],
    ),
  ];
  if (totals.divergentTasks.length > 0) {
    lines.push('', 'Tasks that diverge most:', formatTable(['divergences', 'runs', 'task'], totals.divergentTasks.map((entry) => [entry.divergences, entry.runs, entry.task])));
    lines.push('', 'Steps that diverge most:', formatTable(['divergences', 'step', 'latest reason'], totals.divergentSteps.map((entry) => [entry.divergences, entry.step, entry.lastReason.split('\n')[0]!.slice(0, 100)])));
  }
  return lines.join('\n');
}

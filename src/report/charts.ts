import type { RunStatus } from '../store/columnValues.js';
import { html, type Markup } from './markup.js';
import type { ReportRun } from './reportModel.js';

/** Colours by status, shared by the charts and the page's badges (see layout.ts). */
export const STATUS_COLOURS: Record<RunStatus, string> = {
  replayed: '#2e9e5b',
  mixed: '#3b7dd8',
  agent: '#8a5cd1',
  diverged: '#e08a1e',
  failed: '#d64545',
  interrupted: '#8c8c8c',
  running: '#c9c9c9',
};
const STATUS_ORDER: RunStatus[] = ['replayed', 'mixed', 'agent', 'diverged', 'failed', 'interrupted', 'running'];

/** Days shown at most: a longer history shows its latest days. */
const MAX_DAYS = 60;
const WIDTH = 640;
const HEIGHT = 180;
const PAD = { left: 36, right: 12, top: 12, bottom: 28 };

type Day = { day: string; runs: ReportRun[] };

function days(runs: readonly ReportRun[]): Day[] {
  const byDay = new Map<string, ReportRun[]>();
  for (const run of runs) {
    const day = new Date(run.startedAt).toISOString().slice(0, 10);
    byDay.set(day, [...(byDay.get(day) ?? []), run]);
  }
  return [...byDay].sort(([a], [b]) => a.localeCompare(b)).slice(-MAX_DAYS).map(([day, dayRuns]) => ({ day, runs: dayRuns }));
}

/** Plain SVG: runs per day (UTC), stacked by status. */
export function runsPerDayChart(runs: readonly ReportRun[]): Markup {
  const data = days(runs);
  if (data.length === 0) return html`<p class="muted">No runs.</p>`;
  const most = Math.max(...data.map((day) => day.runs.length));
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const slot = (WIDTH - PAD.left - PAD.right) / data.length;
  const barWidth = Math.max(2, Math.min(40, slot * 0.7));
  const bars = data.map((day, index) => {
    let y = HEIGHT - PAD.bottom;
    const x = PAD.left + index * slot + (slot - barWidth) / 2;
    const segments = STATUS_ORDER.map((status) => {
      const count = day.runs.filter((run) => run.status === status).length;
      if (count === 0) return html``;
      const height = (count / most) * plotHeight;
      y -= height;
      return html`<rect x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${barWidth.toFixed(1)}" height="${height.toFixed(1)}" fill="${STATUS_COLOURS[status]}"><title>${day.day}: ${count} ${status}</title></rect>`;
    });
    const label = data.length <= 12 || index % Math.ceil(data.length / 12) === 0 ? html`<text x="${(x + barWidth / 2).toFixed(1)}" y="${HEIGHT - 10}" text-anchor="middle">${day.day.slice(5)}</text>` : html``;
    return html`<g>${segments}${label}</g>`;
  });
  return html`<svg class="chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="Runs per day by status">
    ${axis(most, 'runs')}${bars}</svg>${legend()}`;
}

/**
 * Plain SVG: per day, the agent calls made against those an agent alone would have made for the
 * same steps (the overview's estimate): how much of the agent's work is still needed.
 */
export function agentShareChart(runs: readonly ReportRun[], callsPerStep: number): Markup {
  const data = days(runs)
    .map((day) => {
      const counted = day.runs.filter((run) => run.status !== 'running' && run.steps.length > 0);
      const agentOnly = counted.reduce((sum, run) => sum + run.steps.length, 0) * callsPerStep;
      const calls = counted.reduce((sum, run) => sum + run.agentCalls, 0);
      return { day: day.day, share: agentOnly > 0 ? Math.min(1, calls / agentOnly) : null };
    })
    .filter((day): day is { day: string; share: number } => day.share !== null);
  if (data.length === 0) return html`<p class="muted">No finished runs with steps.</p>`;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const step = data.length > 1 ? (WIDTH - PAD.left - PAD.right) / (data.length - 1) : 0;
  const points = data.map((day, index) => ({ x: PAD.left + (data.length > 1 ? index * step : (WIDTH - PAD.left - PAD.right) / 2), y: HEIGHT - PAD.bottom - day.share * plotHeight, ...day }));
  const path = points.map((point, index) => `${index === 0 ? 'M' : 'L'}${point.x.toFixed(1)},${point.y.toFixed(1)}`).join(' ');
  const dots = points.map(
    (point) => html`<circle cx="${point.x.toFixed(1)}" cy="${point.y.toFixed(1)}" r="3" fill="#8a5cd1"><title>${point.day}: ${Math.round(point.share * 100)}% of agent-only calls</title></circle>`,
  );
  const labels = points.map((point, index) =>
    data.length <= 12 || index % Math.ceil(data.length / 12) === 0 ? html`<text x="${point.x.toFixed(1)}" y="${HEIGHT - 10}" text-anchor="middle">${point.day.slice(5)}</text>` : html``,
  );
  return html`<svg class="chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="Agent calls as a share of agent-only calls, per day">
    ${axis(1, 'share', true)}<path d="${path}" fill="none" stroke="#8a5cd1" stroke-width="2"/>${dots}${labels}</svg>`;
}

function axis(top: number, unit: string, percent = false): Markup {
  const bottom = HEIGHT - PAD.bottom;
  const label = (value: number) => (percent ? `${Math.round(value * 100)}%` : String(Math.round(value)));
  return html`<g class="axis"><line x1="${PAD.left}" y1="${bottom}" x2="${WIDTH - PAD.right}" y2="${bottom}"/><line x1="${PAD.left}" y1="${PAD.top}" x2="${PAD.left}" y2="${bottom}"/>
    <text x="${PAD.left - 4}" y="${PAD.top + 4}" text-anchor="end">${label(top)}</text><text x="${PAD.left - 4}" y="${bottom}" text-anchor="end">0</text><title>${unit}</title></g>`;
}

function legend(): Markup {
  return html`<div class="legend">${STATUS_ORDER.filter((status) => status !== 'running').map((status) => html`<span><i style="background:${STATUS_COLOURS[status]}"></i>${status}</span>`)}</div>`;
}

import { agentShareChart, runsPerDayChart } from './charts.js';
import { formatMs, formatShare, formatTime, page, statusBadge } from './layout.js';
import { reportPaths } from './links.js';
import { html, jsonForScript, type Markup } from './markup.js';
import type { ReportModel, ReportRun } from './reportModel.js';
import type { Totals } from './totals.js';
import { proxySection } from './proxySection.js';
import { timeBar } from './timeBar.js';

/**
 * The overview: the totals a manager asks for, two charts, where runs diverge most, schedules,
 * and every run in a table that filters by status, task and schedule and searches as you type.
 */
export function overviewPage(model: ReportModel, totals: Totals): string {
  const taskNames = new Map(model.tasks.map((task) => [task.id, task.template]));
  const body = html`
<h1>Runs</h1>
${totalsCards(totals)}
${timeTotals(totals)}
<div class="charts">
  <section><h2>Runs per day, by status</h2>${runsPerDayChart(model.runs)}</section>
  <section><h2>Agent calls against agent-only runs, per day</h2>${agentShareChart(model.runs, totals.callsPerStep)}</section>
</div>
${divergenceTables(totals)}
${schedulesTable(model)}
${proxySection(model.proxy)}
<h2 id="runs">All runs</h2>
<div class="filters" id="filters">
  <span>${(['replayed', 'mixed', 'agent', 'diverged', 'failed', 'interrupted', 'running'] as const).map(
    (status) => html`<label><input type="checkbox" name="status" value="${status}" checked> ${status} (${totals.byStatus[status]})</label> `,
  )}</span>
  <label>Task <select name="task"><option value="">all</option>${[...taskNames].map(([id, template]) => html`<option value="${id}">${truncate(template, 80)}</option>`)}</select></label>
  <label>Schedule <select name="schedule"><option value="">all</option>${model.schedules.map((schedule) => html`<option value="${schedule.name}">${schedule.name}</option>`)}</select></label>
  <input type="search" name="search" placeholder="Search task, error, run id" aria-label="Search runs">
  <span class="muted" id="shown">${model.runs.length} of ${model.runs.length} runs</span>
</div>
<table id="runs-table"><thead><tr><th>Started (UTC)</th><th>Status</th><th>Task</th><th>Schedule</th><th class="num">Cached</th><th class="num">Relocated</th><th class="num">Agent</th><th class="num">Re-joined</th><th class="num">Agent calls</th><th class="num">Tokens</th><th class="num">Duration</th></tr></thead>
<tbody>${model.runs.map(runRow)}</tbody></table>
<script type="application/json" id="run-filters">${jsonForScript(model.runs.map((run) => ({ status: run.status, task: run.taskId ?? '', schedules: run.schedules, text: `${run.task} ${run.error ?? ''} ${run.id}`.toLowerCase() })))}</script>`;
  return page({ title: 'Overview', depth: 0, scope: `${model.scope} · generated ${formatTime(model.generatedAt)} UTC`, body, script: FILTER_SCRIPT });
}

function totalsCards(totals: Totals): Markup {
  // A long figure (four step counts) gets a smaller type, so a card never wraps mid-figure.
  const card = (value: string, label: string, note?: Markup | string) => html`<div class="card"><div class="value${value.length > 14 ? ' long' : ''}">${value}</div><div class="label">${label}</div>${note ? html`<div class="note">${note}</div>` : ''}</div>`;
  const saved = totals.agentOnlyCalls > 0 ? 1 - totals.agentCalls / totals.agentOnlyCalls : null;
  const speedup = totals.medianReplayedMs && totals.medianAgentMs ? totals.medianAgentMs / totals.medianReplayedMs : null;
  return html`<div class="cards" id="totals">
  ${card(String(totals.runs), 'runs', `${totals.ended} ended`)}
  ${card(formatShare(totals.replayedShare), 'fully replayed', `${totals.byStatus.replayed} of ${totals.ended} ended runs with no agent call`)}
  ${card(`${totals.agentCalls} / ${totals.agentOnlyCalls}`, 'agent calls / agent-only estimate', saved === null ? '' : `${formatShare(Math.max(0, saved))} of calls saved (${totals.agentOnlyBasis === 'observed' ? `${totals.callsPerStep.toFixed(2)} calls per step, as agent runs here took` : 'one call per step: no agent-only run here'})`)}
  ${card(totals.agentOnlyTokens === null ? (totals.tokens > 0 ? String(totals.tokens) : '–') : `${totals.tokens} / ${totals.agentOnlyTokens}`, 'tokens / agent-only estimate', totals.agentOnlyTokens === null ? 'no agent here reported tokens' : 'at the tokens per call seen here')}
  ${card(`${formatMs(totals.medianReplayedMs)} / ${formatMs(totals.medianAgentMs)}`, 'median time: replayed run / agent run', speedup ? `replay ${speedup.toFixed(1)}x faster` : '')}
  ${card(`${totals.steps.cached} · ${totals.steps.relocated} · ${totals.steps.agent} · ${totals.steps.rejoined}`, 'steps: cached · relocated · agent · re-joined')}
</div>`;
}

/** Where the time went, over the runs that kept it; nothing where none did (runs stored before rote kept it). */
function timeTotals(totals: Totals): Markup {
  if (!totals.time) return html``;
  const { runs, totalMs } = totals.time;
  const of = runs === totals.runs ? `the ${runs} run${runs === 1 ? '' : 's'}` : `the ${runs} of ${totals.runs} runs that kept it`;
  return html`<h2>Where the time went</h2><p class="muted">${formatMs(totalMs)} over ${of}.</p>${timeBar(totals.time, 'time-totals')}`;
}

function divergenceTables(totals: Totals): Markup {
  if (totals.divergentTasks.length === 0) return html`<h2>Where pages differed</h2><p class="muted">No cached step diverged in these runs.</p>`;
  return html`<h2>Where pages differed</h2>
<div class="charts">
<table id="divergent-tasks"><thead><tr><th>Task</th><th class="num">Divergences</th><th class="num">Runs</th></tr></thead><tbody>${totals.divergentTasks.map(
    (entry) => html`<tr><td class="task-cell">${entry.taskId ? html`<a href="${reportPaths.task(entry.taskId)}">${entry.task}</a>` : entry.task}</td><td class="num">${entry.divergences}</td><td class="num">${entry.runs}</td></tr>`,
  )}</tbody></table>
<table id="divergent-steps"><thead><tr><th>Step</th><th class="num">Divergences</th><th>Latest reason</th></tr></thead><tbody>${totals.divergentSteps.map(
    (entry) => html`<tr><td class="task-cell">${entry.step}<div class="muted">${truncate(entry.task, 60)}</div></td><td class="num">${entry.divergences}</td><td class="task-cell">${truncate(entry.lastReason, 200)}</td></tr>`,
  )}</tbody></table>
</div>`;
}

function schedulesTable(model: ReportModel): Markup {
  if (model.schedules.length === 0) return html``;
  return html`<h2>Schedules</h2><table id="schedules"><thead><tr><th>Schedule</th><th>Cron</th><th>Task</th><th class="num">Slots</th><th class="num">Succeeded</th><th class="num">Failed</th><th class="num">Skipped / missed</th><th>Last slot</th></tr></thead><tbody>${model.schedules.map((schedule) => {
    const count = (...statuses: string[]) => schedule.slots.filter((slot) => statuses.includes(slot.status)).length;
    const last = schedule.slots[0];
    return html`<tr><td><a href="${reportPaths.schedule(schedule.name)}">${schedule.name}</a>${schedule.enabled ? '' : html` <span class="muted">(paused)</span>`}</td><td><code>${schedule.cron}</code> ${schedule.timezone}</td><td class="task-cell">${truncate(schedule.task, 60)}</td><td class="num">${schedule.slots.length}</td><td class="num">${count('succeeded')}</td><td class="num">${count('failed', 'interrupted')}</td><td class="num">${count('skipped', 'missed')}</td><td>${last ? `${formatTime(last.slotAt)} ${last.status}` : '–'}</td></tr>`;
  })}</tbody></table>`;
}

function runRow(run: ReportRun): Markup {
  return html`<tr data-status="${run.status}"><td><a href="${reportPaths.run(run.id)}">${formatTime(run.startedAt)}</a></td><td>${statusBadge(run.status)}</td><td class="task-cell">${run.taskId ? html`<a href="${reportPaths.task(run.taskId)}">${truncate(run.task, 120)}</a>` : truncate(run.task, 120)}</td><td>${run.schedules.map((name, index) => html`${index > 0 ? ', ' : ''}<a href="${reportPaths.schedule(name)}">${name}</a>`)}</td><td class="num">${run.counts.cached}</td><td class="num">${run.counts.relocated}</td><td class="num">${run.counts.agent}</td><td class="num">${run.counts.rejoined}</td><td class="num">${run.agentCalls}</td><td class="num">${run.tokens}</td><td class="num">${formatMs(run.durationMs)}</td></tr>`;
}

export function truncate(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}

/** Hides the rows the filters leave out. Reads its data as JSON; never builds markup from it. */
const FILTER_SCRIPT = `(function () {
  var data = JSON.parse(document.getElementById('run-filters').textContent);
  var rows = document.querySelectorAll('#runs-table tbody tr');
  var form = document.getElementById('filters');
  var shown = document.getElementById('shown');
  function apply() {
    var statuses = {};
    form.querySelectorAll('input[name=status]').forEach(function (box) { statuses[box.value] = box.checked; });
    var task = form.querySelector('select[name=task]').value;
    var schedule = form.querySelector('select[name=schedule]').value;
    var words = form.querySelector('input[name=search]').value.toLowerCase().split(/\\s+/).filter(Boolean);
    var count = 0;
    for (var i = 0; i < rows.length; i++) {
      var run = data[i];
      var visible = statuses[run.status] && (!task || run.task === task) && (!schedule || run.schedules.indexOf(schedule) >= 0) &&
        words.every(function (word) { return run.text.indexOf(word) >= 0; });
      rows[i].hidden = !visible;
      if (visible) count++;
    }
    shown.textContent = count + ' of ' + rows.length + ' runs';
  }
  form.addEventListener('input', apply);
  form.addEventListener('change', apply);
  apply();
})();`;

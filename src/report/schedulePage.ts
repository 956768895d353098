import { formatTime, page } from './layout.js';
import { reportPaths } from './links.js';
import { html } from './markup.js';
import type { ReportSchedule } from './reportModel.js';

/** A schedule: its slots, newest first, each with what became of it and links to the runs it made. */
export function schedulePage(schedule: ReportSchedule, knownRuns: ReadonlySet<string>, scope: string): string {
  const up = '../';
  const body = html`
<h1>Schedule ${schedule.name}</h1>
<dl class="facts">
  <dt>Cron</dt><dd><code>${schedule.cron}</code> in ${schedule.timezone}${schedule.enabled ? '' : ' (paused)'}</dd>
  <dt>Task</dt><dd>${schedule.task}</dd>
  <dt>Slots</dt><dd>${schedule.slots.length}</dd>
</dl>
<h2>Slots</h2>
<table id="slots"><thead><tr><th>Slot (UTC)</th><th>Trigger</th><th>Status</th><th>Runs</th><th>Why</th></tr></thead><tbody>${schedule.slots.map(
    (slot) => html`<tr data-status="${slot.status}"><td>${formatTime(slot.slotAt)}</td><td>${slot.trigger}</td><td>${slot.status}</td><td>${slot.runIds.map(
      (id, index) => html`${index > 0 ? ' ' : ''}${knownRuns.has(id) ? html`<a href="${up}${reportPaths.run(id)}">${id.slice(0, 8)}</a>` : html`<span class="muted" title="not in this report">${id.slice(0, 8)}</span>`}`,
    )}</td><td class="task-cell">${slot.reason ?? ''}</td></tr>`,
  )}</tbody></table>`;
  return page({ title: `Schedule ${schedule.name}`, depth: 1, scope, body });
}

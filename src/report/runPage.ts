import type { ImageLinks } from './imageLinks.js';
import { formatMs, formatTime, page, statusBadge } from './layout.js';
import { reportPaths } from './links.js';
import { html, type Markup } from './markup.js';
import type { ReportDialog, ReportDivergence, ReportRun, ReportStep } from './reportModel.js';
import { timeBar } from './timeBar.js';
import { timeSplitOf } from './timeSplit.js';

/**
 * One run: what it was, how it ended, and a timeline of its steps with a picture of the page
 * before each; where a cached step could not be shown safe, the recorded crop, the live crop and
 * their diff side by side with the reason; on failure the last screen and the error.
 */
export function runPage(run: ReportRun, images: ImageLinks, scope: string): string {
  const up = '../';
  const image = (hash: string | null, alt: string, className = '') => {
    const path = images.path(hash);
    return path ? html`<a href="${up}${path}"><img class="${className}" src="${up}${path}" alt="${alt}" loading="lazy"></a>` : html`<span class="none">no picture</span>`;
  };
  const screen = run.screenshot ? images.path(run.screenshot) : null;
  const entries = [
    ...run.divergences.map((divergence) => ({ at: divergence.index, order: 0, markup: divergenceItem(divergence, image) })),
    ...run.steps.map((step) => ({ at: step.index, order: 1, markup: stepItem(step, image) })),
    // A dialog opens while its step acts: shown after it.
    ...run.dialogs.map((dialog) => ({ at: dialog.step, order: 2, markup: dialogItem(dialog) })),
  ].sort((a, b) => a.at - b.at || a.order - b.order);
  const body = html`
<h1>${statusBadge(run.status)} ${run.task}</h1>
<dl class="facts">
  <dt>Run</dt><dd><code>${run.id}</code></dd>
  <dt>Values</dt><dd id="run-values">${valuesList(run.values)}</dd>
  <dt>Task</dt><dd>${run.taskId ? html`<a href="${up}${reportPaths.task(run.taskId)}">trajectory of this task</a>` : 'none stored'}</dd>
  ${run.schedules.length > 0 ? html`<dt>Schedule</dt><dd>${run.schedules.map((name, index) => html`${index > 0 ? ', ' : ''}<a href="${up}${reportPaths.schedule(name)}">${name}</a>`)}</dd>` : ''}
  <dt>Started</dt><dd>${formatTime(run.startedAt)} UTC</dd>
  <dt>Duration</dt><dd>${formatMs(run.durationMs)}</dd>
  ${timeFact(run)}
  <dt>Mode</dt><dd>${run.mode}</dd>
  <dt>Steps</dt><dd id="step-counts">${run.counts.cached} cached, ${run.counts.relocated} relocated, ${run.counts.agent} agent, ${run.counts.rejoined} re-joined</dd>
  <dt>Agent calls</dt><dd>${run.agentCalls}${run.tokens > 0 ? ` (${run.tokens} tokens)` : ''}</dd>
</dl>
${run.error ? html`<h2>What happened</h2><pre class="error" id="run-error">${run.error}</pre>` : ''}
${screen ? html`<h2>Last screen</h2><div class="screen"><a href="${up}${screen}"><img id="last-screen" src="${up}${screen}" alt="The page when the run ended"></a></div>` : ''}
<h2>Timeline</h2>
${entries.length > 0 ? html`<ol class="timeline" id="timeline">${entries.map((entry) => entry.markup)}</ol>` : html`<p class="muted">No step ran.</p>`}`;
  return page({ title: `Run ${run.id.slice(0, 8)}`, depth: 1, scope, body });
}

/** Where the run's time went, beside its duration; nothing for a run that kept none. */
function timeFact(run: ReportRun): Markup {
  const split = run.time ? timeSplitOf([run.time]) : null;
  return split ? html`<dt>Where the time went</dt><dd>${timeBar(split, 'run-time')}</dd>` : html``;
}

/** The run's values, one `name = value` each, as the run was given them (secrets are stored masked). */
function valuesList(values: ReportRun['values']): Markup {
  if (values === null) return html`<span class="muted">not kept for this run</span>`;
  if (values.length === 0) return html`<span class="muted">none</span>`;
  return html`<ul class="values">${values.map(([name, value]) => html`<li><code>${name}</code> = <code>${value}</code></li>`)}</ul>`;
}

type ImageFn = (hash: string | null, alt: string, className?: string) => Markup;

function stepItem(step: ReportStep, image: ImageFn): Markup {
  return html`<li class="step" data-kind="${step.kind}">
  <div class="thumb">${image(step.thumb, `The page around the target before step ${step.index + 1}`)}</div>
  <div>
    <div class="head"><span class="muted">#${step.index + 1}</span> <span class="kind kind-${step.kind}">${kindLabel(step.kind)}</span> <span class="intent">${step.intent ?? step.action}</span> <span class="muted">${formatMs(step.durationMs)}</span></div>
    <div class="detail">${step.target ? html`on ${step.target} · ` : ''}${step.action}</div>
    ${step.page ? html`<details><summary class="detail">The screen the agent saw</summary>${image(step.page, `The screen the agent saw before step ${step.index + 1}`)}</details>` : ''}
  </div>
</li>`;
}

function divergenceItem(divergence: ReportDivergence, image: ImageFn): Markup {
  const figure = (hash: string | null, caption: string, name: string) => html`<figure data-image="${name}">${image(hash, caption)}<figcaption>${caption}</figcaption></figure>`;
  return html`<li class="divergence" id="divergence-${divergence.index + 1}">
  <div class="head"><span class="muted">#${divergence.index + 1}</span> <span class="kind kind-diverged">diverged</span> <span class="intent">${divergence.intent ?? divergence.action ?? 'no recorded step fits here'}</span></div>
  ${divergence.action ? html`<div class="detail">${divergence.target ? html`on ${divergence.target} · ` : ''}${divergence.action}</div>` : ''}
  <div class="reason">${divergence.reason}</div>
  ${divergence.expected || divergence.actual || divergence.diff ? html`<div class="evidence">${figure(divergence.expected, 'Recorded', 'expected')}${figure(divergence.actual, 'Live', 'actual')}${figure(divergence.diff, 'Diff', 'diff')}</div>` : ''}
</li>`;
}

/** A native dialog: what it said, and who answered it how (the recording, the agent, or rote's rule, with why). */
function dialogItem(dialog: ReportDialog): Markup {
  const who = dialog.by === 'recording' ? 'as recorded' : dialog.by === 'agent' ? 'by the agent' : 'by rote';
  return html`<li class="dialog" data-dialog="${dialog.outcome}">
  <div class="head"><span class="muted">#${dialog.step + 1}</span> <span class="kind kind-dialog">${dialog.type}</span> <span class="intent">"${dialog.message}"</span></div>
  <div class="detail">${dialog.outcome} ${who}${dialog.text !== undefined ? html` with "${dialog.text}"` : ''}${dialog.reason ? html`: ${dialog.reason}` : ''}</div>
</li>`;
}

function kindLabel(kind: ReportStep['kind']): string {
  return kind === 'rejoined' ? 're-joined' : kind;
}

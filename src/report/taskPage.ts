import { formatMs, formatTime, page, statusBadge } from './layout.js';
import { reportPaths } from './links.js';
import { html, type Markup } from './markup.js';
import type { ReportNode, ReportRun, ReportTask } from './reportModel.js';

/** A task: its trajectory tree with hit and miss counts per branch, and the runs of it in this report. */
export function taskPage(task: ReportTask, runs: readonly ReportRun[], scope: string): string {
  const up = '../';
  const body = html`
<h1>${task.template}</h1>
<dl class="facts">
  <dt>Key</dt><dd><code>${task.id}</code></dd>
  <dt>Start URL</dt><dd>${task.startUrl}</dd>
  ${task.tags.length > 0 ? html`<dt>Tags</dt><dd>${task.tags.join(', ')}</dd>` : ''}
  <dt>Parameters</dt><dd>${task.paramNames.length > 0 ? task.paramNames.join(', ') : 'none'}</dd>
  <dt>Recorded steps</dt><dd>${task.nodeCount}</dd>
</dl>
<h2>Trajectory</h2>
<p class="muted">Each step with how often a replay used it (hits) and could not show it safe (misses). Siblings are alternative next steps: the usual path first, detours below.</p>
<div class="tree" id="trajectory">${task.roots.length > 0 ? html`<ul>${branches(task.roots)}</ul>` : html`<p class="muted">Nothing recorded yet.</p>`}</div>
<h2>Runs in this report</h2>
${runs.length > 0 ? html`<table><thead><tr><th>Started (UTC)</th><th>Status</th><th class="num">Cached</th><th class="num">Agent</th><th class="num">Agent calls</th><th class="num">Duration</th></tr></thead><tbody>${runs.map(
    (run) => html`<tr><td><a href="${up}${reportPaths.run(run.id)}">${formatTime(run.startedAt)}</a></td><td>${statusBadge(run.status)}</td><td class="num">${run.counts.cached + run.counts.rejoined}</td><td class="num">${run.counts.agent}</td><td class="num">${run.agentCalls}</td><td class="num">${formatMs(run.durationMs)}</td></tr>`,
  )}</tbody></table>` : html`<p class="muted">None.</p>`}`;
  return page({ title: task.template, depth: 1, scope, body });
}

/**
 * A path is a list; only where it branches does the tree indent (one nested list per alternative),
 * so a long recorded path reads top to bottom instead of drifting right.
 */
function branches(nodes: readonly ReportNode[]): Markup[] {
  if (nodes.length === 1) return path(nodes[0]!);
  return [html`<li class="branches">${nodes.map((node, index) => html`<div class="muted">alternative ${index + 1} of ${nodes.length}</div><ul class="branch">${path(node)}</ul>`)}</li>`];
}

function path(node: ReportNode): Markup[] {
  const items: Markup[] = [];
  for (let at: ReportNode | undefined = node; at; at = at.children.length === 1 ? at.children[0] : undefined) {
    items.push(nodeLine(at));
    if (at.children.length > 1) items.push(...branches(at.children));
  }
  return items;
}

function nodeLine(node: ReportNode): Markup {
  return html`<li data-node="${node.id}"><span class="intent">${node.intent ?? node.action}</span> <span class="muted">${node.target ? `on ${node.target} · ` : ''}${node.intent ? node.action : ''}</span>
 <span class="hits" title="hits">${node.hits} hit${node.hits === 1 ? '' : 's'}</span>${node.misses > 0 ? html` <span class="misses" title="misses">${node.misses} miss${node.misses === 1 ? '' : 'es'}</span>` : ''}${node.endsRun ? html` <span class="kind">ends the task${keyed(node.endChosenBy)}</span>` : ''}${node.resumeAtId ? html` <span class="kind kind-rejoined">re-joins the recorded path</span>` : ''}${node.chosenBy.length > 0 ? html` <span class="kind kind-keyed" data-chosen-by="${node.chosenBy.map((key) => key.param).join(' ')}">taken${keyed(node.chosenBy)}</span>` : ''}${node.sets.length > 0 ? html` <span class="kind kind-keyed" data-sets="${node.sets.map((set) => set.param).join(' ')}">sets ${values(node.sets)} by clicking</span>` : ''}${node.lastUsedAt ? html` <span class="muted">last used ${formatTime(node.lastUsedAt)}</span>` : ''}</li>`;
}

/** " only for the learned values of {{times}} (3)": what chose a way on, which no step shows. */
function keyed(keys: readonly { param: string; values: number }[]): string {
  return keys.length > 0 ? ` only for the learned ${values(keys)}` : '';
}

function values(keys: readonly { param: string; values: number }[]): string {
  return keys.map((key) => `{{${key.param}}} (${key.values} value${key.values === 1 ? '' : 's'})`).join(', ');
}

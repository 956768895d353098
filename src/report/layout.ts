import { createHash } from 'node:crypto';
import type { RunStatus } from '../store/columnValues.js';
import { STATUS_COLOURS } from './charts.js';
import { html, Markup } from './markup.js';

const STYLE = `
:root { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f2328; background: #f6f8fa; }
body { margin: 0; }
header.top { background: #24292f; color: #fff; padding: 10px 24px; display: flex; gap: 18px; align-items: baseline; }
header.top a { color: #fff; text-decoration: none; font-weight: 600; }
header.top .scope { color: #c9d1d9; font-size: 13px; }
main { padding: 16px 24px 48px; max-width: 1280px; }
h1 { font-size: 20px; margin: 8px 0 12px; word-break: break-word; }
h2 { font-size: 16px; margin: 24px 0 8px; }
a { color: #0969da; }
.muted { color: #656d76; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(190px, 1fr)); gap: 10px; }
.card { background: #fff; border: 1px solid #d0d7de; border-radius: 6px; padding: 10px 12px; }
.card .value { font-size: 22px; font-weight: 600; white-space: nowrap; }
.card .value.long { font-size: 17px; line-height: 29px; }
.card .label { color: #656d76; font-size: 12px; }
.card .note { color: #656d76; font-size: 12px; margin-top: 2px; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(420px, 1fr)); gap: 10px; }
.chart { width: 100%; height: auto; background: #fff; border: 1px solid #d0d7de; border-radius: 6px; }
.chart text { font-size: 10px; fill: #656d76; }
.chart .axis line { stroke: #d0d7de; }
.legend { display: flex; flex-wrap: wrap; gap: 10px; font-size: 12px; margin: 4px 0; }
.legend i { display: inline-block; width: 10px; height: 10px; margin-right: 4px; border-radius: 2px; }
table { border-collapse: collapse; width: 100%; background: #fff; border: 1px solid #d0d7de; }
th, td { text-align: left; padding: 5px 8px; border-bottom: 1px solid #eaeef2; vertical-align: top; }
th { background: #f6f8fa; font-weight: 600; font-size: 12px; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.task-cell { max-width: 420px; word-break: break-word; }
.badge { display: inline-block; border-radius: 10px; padding: 0 8px; font-size: 12px; font-weight: 600; color: #fff; white-space: nowrap; }
.kind { display: inline-block; border-radius: 4px; padding: 0 6px; font-size: 12px; border: 1px solid #d0d7de; background: #fff; white-space: nowrap; }
.kind-cached { border-color: #2e9e5b; color: #1a7f37; }
.kind-relocated { border-color: #3b7dd8; color: #0969da; }
.kind-agent { border-color: #8a5cd1; color: #6639ba; }
.kind-rejoined { border-color: #2e9e5b; color: #fff; background: #2e9e5b; }
.kind-diverged { border-color: #e08a1e; color: #9a5b00; }
.kind-dialog { border-color: #57606a; color: #24292f; background: #eaeef2; }
.kind-keyed { border-color: #bf8700; color: #7d4e00; background: #fff8c5; }
.filters { display: flex; flex-wrap: wrap; gap: 12px; align-items: center; margin: 8px 0; }
.filters label { font-size: 13px; }
.filters input[type=search] { padding: 4px 8px; min-width: 240px; }
.timeline { list-style: none; padding: 0; margin: 0; }
.timeline > li { background: #fff; border: 1px solid #d0d7de; border-radius: 6px; margin: 6px 0; padding: 8px 10px; display: grid; grid-template-columns: 200px 1fr; gap: 12px; }
.timeline .thumb img, .timeline .thumb .none { max-width: 200px; max-height: 100px; border: 1px solid #d0d7de; display: block; }
.timeline .thumb .none { width: 200px; height: 40px; color: #8c959f; font-size: 12px; display: flex; align-items: center; justify-content: center; background: #f6f8fa; }
.timeline .head { display: flex; gap: 8px; align-items: baseline; flex-wrap: wrap; }
.timeline .intent { font-weight: 600; word-break: break-word; }
.timeline .detail { color: #656d76; font-size: 12px; word-break: break-word; }
.timeline li.divergence { border-color: #e08a1e; background: #fff8ee; grid-template-columns: 1fr; }
.timeline li.dialog { background: #f6f8fa; grid-template-columns: 1fr; }
.evidence { display: flex; gap: 12px; flex-wrap: wrap; margin-top: 6px; }
.evidence figure { margin: 0; }
.evidence figcaption { font-size: 12px; color: #656d76; }
.evidence img { max-width: 380px; border: 1px solid #d0d7de; background: #fff; display: block; }
pre.error { background: #fff0f0; border: 1px solid #f0b4b4; padding: 8px; white-space: pre-wrap; word-break: break-word; font-size: 12px; }
.screen img { max-width: 100%; border: 1px solid #d0d7de; }
.tree ul { list-style: none; padding-left: 18px; border-left: 1px dashed #d0d7de; margin: 2px 0; }
.tree > ul { padding-left: 0; border-left: 0; }
.tree li { margin: 2px 0; }
.tree .hits { font-variant-numeric: tabular-nums; color: #1a7f37; }
.tree .misses { font-variant-numeric: tabular-nums; color: #cf222e; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0; }
dl.facts dt { color: #656d76; }
dl.facts dd { margin: 0; word-break: break-word; }
.time-split .time-bar { display: block; width: 100%; max-width: 520px; height: 10px; background: #eaeef2; border-radius: 2px; }
.time-split .parts { font-size: 13px; margin-top: 2px; }
.time-split i { display: inline-block; width: 10px; height: 10px; margin-right: 4px; border-radius: 2px; }
ul.values { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 2px 16px; }
`;

/** The status as a coloured badge; colours come from the charts' palette so the two agree. */
export function statusBadge(status: RunStatus): Markup {
  return html`<span class="badge status-${status}" style="background:${STATUS_COLOURS[status]}">${status}</span>`;
}

/**
 * One page of the report. A Content-Security-Policy allows no network at all, images only from
 * the report's own folder, and only the page's own script (by its hash): even text that escaped
 * escaping could not run.
 */
export function page(input: { title: string; depth: number; scope: string; body: Markup; script?: string }): string {
  const up = '../'.repeat(input.depth);
  const scriptHash = input.script ? createHash('sha256').update(input.script).digest('base64') : undefined;
  const policy = `default-src 'none'; img-src 'self' data: file:; style-src 'unsafe-inline'; script-src ${scriptHash ? `'sha256-${scriptHash}'` : "'none'"}; base-uri 'none'; form-action 'none'`;
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${policy}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${input.title} · rote report</title>
<style>${new Markup(STYLE)}</style></head>
<body><header class="top"><a href="${up}index.html">rote report</a><span class="scope">${input.scope}</span></header>
<main>${input.body}</main>
${input.script ? new Markup(`<script>${input.script}</script>`) : ''}
</body></html>
`.text;
}

export function formatMs(ms: number | null): string {
  if (ms === null) return '–';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

export function formatTime(at: number | null): string {
  return at === null ? '–' : new Date(at).toISOString().replace('T', ' ').slice(0, 19);
}

export function formatShare(share: number | null): string {
  return share === null ? '–' : `${(share * 100).toFixed(share > 0 && share < 0.1 ? 1 : 0)}%`;
}

/** File names in the report folder: ids are uuids and hex hashes, names are the user's; anything else becomes _. */
export function fileSafe(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 120) || '_';
}

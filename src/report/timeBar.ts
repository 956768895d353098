import { RUN_TIME_PARTS } from '../engine/runTime.js';
import { formatMs, formatShare } from './layout.js';
import { html, type Markup } from './markup.js';
import { TIME_PART_LABELS, type RunTimePart, type TimeSplit } from './timeSplit.js';

/** The replay's green and the agent's purple, as the step kinds and statuses have them. */
const PART_COLOURS: Record<RunTimePart, string> = { replayed: '#2e9e5b', checks: '#3b7dd8', waits: '#e0b41e', agent: '#8a5cd1', other: '#8c8c8c' };

/** Plain SVG and text: the split as one stacked bar, then each part with its time and share. */
export function timeBar(split: TimeSplit, id: string): Markup {
  let x = 0;
  const segments = RUN_TIME_PARTS.filter((part) => split.share[part] > 0).map((part) => {
    const width = split.share[part] * 100;
    const segment = html`<rect x="${x.toFixed(2)}" y="0" width="${width.toFixed(2)}" height="10" fill="${PART_COLOURS[part]}"><title>${TIME_PART_LABELS[part]}: ${formatMs(split.ms[part])} (${formatShare(split.share[part])})</title></rect>`;
    x += width;
    return segment;
  });
  const parts = RUN_TIME_PARTS.map(
    (part, index) => html`${index > 0 ? ' · ' : ''}<span data-part="${part}"><i style="background:${PART_COLOURS[part]}"></i>${TIME_PART_LABELS[part]} ${formatMs(split.ms[part])}${split.totalMs > 0 ? html` <span class="muted">(${formatShare(split.share[part])})</span>` : ''}</span>`,
  );
  return html`<div class="time-split" id="${id}"><svg class="time-bar" viewBox="0 0 100 10" preserveAspectRatio="none" role="img" aria-label="Where the time went">${segments}</svg><div class="parts">${parts}</div></div>`;
}

/**
 * Page 3, "Index the book": a job to start, watch and stop once it reaches 60% (its speed differs
 * on every load), a Notes field whose label is empty at load and filled in a second or two
 * later, and Publish. The stopped value travels in a hidden field with the final submit.
 */
import { escapeHtml } from '../../../src/demo/app/html.js';
import { CONFIRM_ON_SUBMIT, popupOnFocus } from '../perturbationHtml.js';
import { CONFIRM_FIELD, STOP_AT_LEAST } from './data.js';
import { BUTTON, errorBox, heading, layout, steps, type P } from './layout.js';

export type IndexView = {
  bookId: number;
  title: string;
  /** Milliseconds per 1% (40 to 60, per load). */
  tickMs: number;
  /** progressJumps: the sizes of the successive jumps (3 to 9 %); null: 1% per tick. */
  jumps: readonly number[] | null;
  /** When the Notes label gets its text, after load. */
  labelDelayMs: number;
  slowMs: number;
  error?: string;
};

/** Pixels of bar per percent. */
const BAR_SCALE = 4;

/** A stretched one-pixel image as the bar, as old pages drew them (no theme recolours an image). */
const BAR_IMAGE = `data:image/svg+xml,${encodeURIComponent("<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 1 1' preserveAspectRatio='none'><rect width='1' height='1' fill='#2f7a45'/></svg>")}`;

const SCRIPT = `(function () {
  var start = document.getElementById('start-indexing');
  var stop = document.getElementById('stop-indexing');
  var progress = document.getElementById('progress');
  var bar = document.getElementById('progress-bar');
  var status = document.getElementById('index-status');
  var stoppedAt = document.getElementById('index-form').elements.stopped_at;
  var value = 0, timer = null, jump = 0;
  function show() {
    progress.setAttribute('aria-valuenow', String(value));
    progress.textContent = value + '%';
    bar.width = value * ${BAR_SCALE};
  }
  function finish(text) {
    clearTimeout(timer);
    timer = null;
    stop.disabled = true;
    stoppedAt.value = String(value);
    status.textContent = text;
  }
  function schedule() {
    var by = JUMPS ? JUMPS[jump++ % JUMPS.length] : 1;
    // A jump of k% comes after k ticks: jumps change which values show, not how fast it goes.
    timer = setTimeout(function () {
      value = Math.min(100, value + by);
      show();
      if (value >= 100) finish('Indexing complete.');
      else schedule();
    }, by * TICK_MS);
  }
  start.onclick = function () {
    start.disabled = true;
    stop.disabled = false;
    status.textContent = 'Indexing\\u2026';
    schedule();
  };
  stop.onclick = function () {
    if (timer !== null) finish('Indexing stopped at ' + value + '%.');
  };
  setTimeout(function () { document.getElementById('notes-label').textContent = 'Notes'; }, LABEL_MS);
})();`;

export function indexPage(p: P, view: IndexView): string {
  const confirmRow =
    p === 'requiredField'
      ? `<tr><td>&nbsp;</td><td style="padding: 6px 0 0 0;"><input type="checkbox" id="${CONFIRM_FIELD.name}" name="${CONFIRM_FIELD.name}" value="yes" required style="margin: 0 6px 0 0; vertical-align: middle;"><label for="${CONFIRM_FIELD.name}" style="vertical-align: middle;">${CONFIRM_FIELD.label}</label> <span style="color: #a00000;">*</span></td></tr>\n`
      : '';
  const onsubmit = p === 'confirmDialog' ? ` onsubmit="${CONFIRM_ON_SUBMIT}"` : '';
  const content = `${steps(3)}
${heading('Index the book')}
<p style="margin: 0 0 8px 0;">Indexing builds the subject and keyword entries for <b>${escapeHtml(view.title)}</b>. Start it, let it reach at least ${STOP_AT_LEAST}%, then stop it: the rest runs overnight.</p>
${errorBox(view.error)}<div style="margin: 4px 0 0 0;"><button type="button" id="start-indexing" style="${BUTTON} width: 130px;">Start indexing</button>&nbsp;&nbsp;<button type="button" id="stop-indexing" disabled style="${BUTTON} width: 90px;">Stop</button></div>
<table cellpadding="0" cellspacing="0" border="0" style="margin: 10px 0 0 0;"><tr>
<td style="width: ${100 * BAR_SCALE}px; height: 16px; padding: 1px; border: 1px solid #7d7566; background: #ffffff;"><img id="progress-bar" src="${BAR_IMAGE}" width="0" height="16" alt="" style="display: block;"></td>
<td style="padding: 0 0 0 10px;"><div id="progress" role="progressbar" aria-valuenow="0" aria-valuemin="0" aria-valuemax="100" style="width: 50px; font-weight: bold;">0%</div></td>
</tr></table>
<p style="margin: 4px 0 10px 0; height: 16px; font-size: 11px; color: #444444;"><span id="index-status"></span></p>
<form id="index-form" method="post" action="/books/${view.bookId}/index" style="margin: 0;"${onsubmit}>
<input type="hidden" name="stopped_at" value="">
<table cellpadding="0" cellspacing="0" border="0">
<tr><td style="width: 70px; padding: 4px 10px 0 0; text-align: right; vertical-align: top;"><label for="notes" id="notes-label"></label></td>
<td><textarea id="notes" name="notes" rows="3" cols="50" style="width: 420px; height: 54px; border: 1px solid #7d7566; padding: 2px 4px; font-size: 13px; font-family: Verdana, Arial, sans-serif; resize: none; background: #ffffff; color: #000;"></textarea></td></tr>
${confirmRow}<tr><td>&nbsp;</td><td style="padding: 12px 0 0 0;"><input type="submit" id="publish-button" value="Publish" style="${BUTTON} width: 100px;"></td></tr>
</table>
</form>
<style>#start-indexing:disabled, #stop-indexing:disabled { color: #9a9384 !important; }</style>
<script type="text/javascript">
var TICK_MS = ${Math.round(view.tickMs)};
var JUMPS = ${view.jumps ? JSON.stringify(view.jumps) : 'null'};
var LABEL_MS = ${Math.round(view.labelDelayMs)};
${SCRIPT}
</script>`;
  return layout(p, 'Index the book', content, view.slowMs, p === 'popupOnFocus' ? popupOnFocus() : '');
}

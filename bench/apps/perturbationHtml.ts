/**
 * The HTML, CSS and inline scripts of the benchmark's perturbations, shared by the three apps so
 * that "a popup on load" is the same popup everywhere. Old-school markup: no framework.
 */

const BUTTON = 'width: 120px; height: 28px; font: 13px Verdana, Arial, sans-serif; background: #e4e4e4; border: 1px solid #7a7a7a;';

/** Wraps the page content so it appears `delayMs` after load (600 to 1500 ms in the benchmark). */
export function slowRender(contentHtml: string, delayMs: number): string {
  return `<div id="slow-content" style="display: none;">${contentHtml}</div>
<div id="slow-loading" style="padding: 20px; color: #555;">Loading, please wait&hellip;</div>
<script>setTimeout(function () { document.getElementById('slow-loading').style.display = 'none'; document.getElementById('slow-content').style.display = 'block'; }, ${Math.round(delayMs)});</script>`;
}

/** A clock that ticks every second; place it in the header, away from every target. */
export function liveClock(): string {
  return `<span id="live-clock" style="float: right; font-family: monospace;"></span>
<script>(function () { function tick() { var d = new Date(); document.getElementById('live-clock').textContent = d.toTimeString().slice(0, 8); } tick(); setInterval(tick, 1000); })();</script>`;
}

/** A header banner whose text rotates every 700 ms. */
export function rotatingBanner(): string {
  const messages = ['Flu shots available now', 'Office closed on Monday', 'New billing address from June', 'Update your contact details'];
  return `<div id="rotating-banner" style="background: #fdf6d8; border: 1px solid #d9c77a; padding: 3px 8px; font-size: 11px; height: 16px; overflow: hidden;"></div>
<script>(function () { var m = ${JSON.stringify(messages)}, i = 0; function show() { document.getElementById('rotating-banner').textContent = m[i++ % m.length]; } show(); setInterval(show, 700); })();</script>`;
}

/** An 80px notice at the very top that pushes everything below it down. */
export function layoutShiftNotice(): string {
  return `<div id="shift-notice" style="box-sizing: border-box; height: 80px; padding: 12px 20px; background: #fff3a8; border-bottom: 2px solid #d4b000; text-align: center;">
<b>Notice:</b> the system will be down for maintenance on Saturday night. Plan your work accordingly.</div>`;
}

function modal(id: string, title: string, text: string, button: string, hidden: boolean): string {
  return `<div id="${id}" style="display: ${hidden ? 'none' : 'block'}; position: fixed; left: 0; top: 0; width: 100%; height: 100%; background: rgba(0, 0, 0, 0.45); z-index: 1000;">
<div role="dialog" aria-modal="true" aria-label="${title}" style="position: absolute; left: 50%; top: 160px; width: 360px; margin-left: -181px; background: #fff; border: 1px solid #333;">
<div style="background: #1f3f73; color: #fff; padding: 6px 10px; font-weight: bold;">${title}</div>
<div style="padding: 14px 12px;">${text}</div>
<div style="padding: 0 12px 12px 12px; text-align: right;"><button type="button" style="${BUTTON}" onclick="document.getElementById('${id}').style.display = 'none';">${button}</button></div>
</div></div>`;
}

/** A modal popup shown on load. */
export function popupOnLoad(): string {
  return modal('load-popup', 'Your session is about to expire', 'For your security you will be signed out soon. Do you want to stay signed in?', 'Stay signed in', false);
}

/** A modal popup shown the first time a text field, select or textarea gets focus. */
export function popupOnFocus(): string {
  return `${modal('focus-popup', 'Privacy reminder', 'Enter only the information the patient has consented to share.', 'I understand', true)}
<script>(function () { var shown = false; document.addEventListener('focusin', function (e) { var t = e.target; if (shown || !t || !/^(INPUT|SELECT|TEXTAREA)$/.test(t.tagName) || t.type === 'submit' || t.type === 'button') return; shown = true; document.getElementById('focus-popup').style.display = 'block'; }); })();</script>`;
}

/** A dark theme over the whole page: every colour changes, the layout does not. */
export function darkTheme(): string {
  return `<style>
html, body, table, tr, td, th, div, span, p, h1, h2, h3, fieldset, legend, label, input, select, textarea, button, a { background-color: #1e1e24 !important; color: #e6e6e6 !important; border-color: #5a5a66 !important; }
</style>`;
}

/** The onsubmit attribute value that asks a native confirm() before saving. */
export const CONFIRM_ON_SUBMIT = "return confirm('Save these changes?');";

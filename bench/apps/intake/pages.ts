/**
 * HTML of the long intake form: table layout, inline styles and scripts, no framework. Rendering
 * depends only on the perturbation and (for the confirmation page) the stored submission, so two
 * loads of the same page give the same pixels (the live clock and the rotating banner aside).
 */
import { escapeHtml, PAGE_FONT, pageHead, submittedRows } from '../../../src/demo/app/html.js';
import type { PerturbationName } from '../contract.js';
import {
  CONFIRM_ON_SUBMIT,
  darkTheme,
  layoutShiftNotice,
  liveClock,
  popupOnFocus,
  popupOnLoad,
  rotatingBanner,
  slowRender,
} from '../perturbationHtml.js';
import { CHECKED_VALUE, CONFIRM_FIELD, FIELDS, INSURANCE, RENAMED_LABEL, STATES } from './fields.js';

/** The slowRender delay: within the contract's 600 to 1500 ms, fixed so that runs are repeatable. */
export const SLOW_RENDER_MS = 1100;

const BUTTON = 'width: 96px; height: 28px; font-size: 13px; font-family: Verdana, Arial, sans-serif; background: #e4e4e4; border: 1px solid #7a7a7a; color: #000;';
const LABEL_CELL = 'width: 170px; padding: 4px 10px 4px 0; text-align: right; vertical-align: top; white-space: nowrap;';
const INPUT_CELL = 'padding: 2px 0;';
const TEXT_INPUT = 'height: 20px; border: 1px solid #7a7a7a; padding: 1px 3px; font-size: 13px; font-family: Verdana, Arial, sans-serif; background: #ffffff; color: #000;';
const REQUIRED = '<span style="color: #b00000;">*</span>';

/**
 * The common frame: a ~760px table with a fixed-height header (the clock and the banner float
 * inside it, so switching them on moves nothing), a menu row, the body and a footer.
 */
function layout(title: string, body: string, perturbation: PerturbationName | null, overlays = ''): string {
  const headerExtras = perturbation === 'liveClock' ? liveClock() : perturbation === 'rotatingBanner' ? `<div style="float: right; width: 250px; margin-top: 7px; line-height: 16px; font-weight: normal; color: #4a3b00;">${rotatingBanner()}</div>` : '';
  return `${pageHead(title)}
${perturbation === 'theme' ? darkTheme() : ''}
</head>
<body style="margin: 0; padding: 0; background: #dcdcdc; color: #000; ${PAGE_FONT}">
${perturbation === 'layoutShift' ? layoutShiftNotice() : ''}<table width="760" cellpadding="0" cellspacing="0" border="0" align="center" style="margin: 10px auto 0 auto; background: #ffffff; border: 1px solid #8a8a8a;">
<tr><td style="background: #1f3f73; color: #ffffff; padding: 0 12px; font-size: 15px; font-weight: bold;"><div style="height: 38px; line-height: 38px; overflow: hidden;">${headerExtras}Lakeview Medical Group &mdash; Patient Registration</div></td></tr>
<tr><td style="background: #c9d3e3; padding: 4px 12px; font-size: 11px; border-bottom: 1px solid #8a8a8a;">Home &nbsp;|&nbsp; Patients &nbsp;|&nbsp; <b>New patient intake</b> &nbsp;|&nbsp; Appointments &nbsp;|&nbsp; Billing &nbsp;|&nbsp; Sign out</td></tr>
<tr><td style="padding: 8px 16px 10px 16px;">
${body}
</td></tr>
<tr><td style="background: #eeeeee; border-top: 1px solid #8a8a8a; padding: 4px 12px; font-size: 10px; color: #555555;">PRS v3.1 &nbsp;&middot;&nbsp; Authorized staff only &nbsp;&middot;&nbsp; Help desk ext. 4410</td></tr>
</table>
${overlays}</body>
</html>
`;
}

function textRow(name: string, label: string, width: number, required: boolean, extra = ''): string {
  return `<tr><td style="${LABEL_CELL}"><label for="${name}">${escapeHtml(label)}</label>${required ? ` ${REQUIRED}` : ''}</td>
<td style="${INPUT_CELL}"><input type="text" id="${name}" name="${name}" maxlength="80" style="${TEXT_INPUT} width: ${width}px;"${extra}></td></tr>`;
}

function labelOf(name: string, perturbation: PerturbationName | null): string {
  const field = FIELDS.find((f) => f.name === name);
  if (!field) throw new Error(`intake pages: no field ${name}`);
  return perturbation === 'renamedLabel' && name === RENAMED_LABEL.name ? RENAMED_LABEL.to : field.label;
}

/** The intake form page under one perturbation (or none). */
export function intakePage(perturbation: PerturbationName | null): string {
  const label = (name: string) => labelOf(name, perturbation);
  const stateOptions = ['<option value="">-- select --</option>', ...STATES.map((s) => `<option value="${s.code}">${escapeHtml(s.name)}</option>`)].join('');
  const radios = INSURANCE.map(
    (o) =>
      `<input type="radio" id="insurance_${o.value}" name="insurance" value="${o.value}" style="margin: 0 4px 0 0; vertical-align: middle;"><label for="insurance_${o.value}" style="margin-right: 24px; vertical-align: middle;">${o.label}</label>`,
  ).join('');
  const checkbox = (name: string) =>
    `<input type="checkbox" id="${name}" name="${name}" value="${CHECKED_VALUE}" style="margin: 0 5px 0 0; vertical-align: middle;"><label for="${name}" style="margin-right: 28px; vertical-align: middle;">${escapeHtml(label(name))}</label>`;
  const save = `<input type="submit" id="save-button" value="Save" style="${BUTTON}">`;
  const del = `<input type="button" id="delete-button" value="Delete" style="${BUTTON}" onclick="deleteRecord()">`;
  const buttons = perturbation === 'swappedButtons' ? `${del}&nbsp;&nbsp;${save}` : `${save}&nbsp;&nbsp;${del}`;
  const confirmRow =
    perturbation === 'requiredField'
      ? `<tr><td style="${LABEL_CELL}">&nbsp;</td>
<td style="padding: 6px 0 0 0;"><input type="checkbox" id="${CONFIRM_FIELD.name}" name="${CONFIRM_FIELD.name}" value="${CHECKED_VALUE}" required style="margin: 0 5px 0 0; vertical-align: middle;"><label for="${CONFIRM_FIELD.name}" style="vertical-align: middle;">${CONFIRM_FIELD.label}</label> ${REQUIRED}</td></tr>`
      : '';
  const onsubmit = perturbation === 'confirmDialog' ? ` onsubmit="${CONFIRM_ON_SUBMIT}"` : '';

  const content = `<h1 style="font-size: 18px; margin: 2px 0 2px 0; color: #1f3f73;">New patient intake</h1>
<p style="margin: 0 0 6px 0; font-size: 11px; color: #444444;">Fields marked with ${REQUIRED} are required. Enter dates as MM/DD/YYYY.</p>
<form id="intake-form" name="intake" method="post" action="/intake"${onsubmit} style="margin: 0;">
<table cellpadding="0" cellspacing="0" border="0" width="100%" style="border-top: 1px solid #cccccc; padding-top: 4px;">
${textRow('first_name', label('first_name'), 240, true)}
${textRow('last_name', label('last_name'), 240, true)}
${textRow('dob', label('dob'), 110, true, ' placeholder="MM/DD/YYYY"')}
${textRow('street', label('street'), 340, false)}
${textRow('city', label('city'), 240, false)}
<tr><td style="${LABEL_CELL}"><label for="state">${label('state')}</label></td>
<td style="${INPUT_CELL}"><select id="state" name="state" style="width: 200px; height: 24px; font-size: 13px; font-family: Verdana, Arial, sans-serif; border: 1px solid #7a7a7a; background: #ffffff; color: #000;">${stateOptions}</select></td></tr>
${textRow('zip', label('zip'), 80, false)}
${textRow('phone', label('phone'), 160, false)}
${textRow('email', label('email'), 280, false)}
<tr><td style="${LABEL_CELL}"><span id="insurance-label">${label('insurance')}</span></td>
<td style="padding: 4px 0;"><span role="radiogroup" aria-labelledby="insurance-label">${radios}</span></td></tr>
<tr><td style="${LABEL_CELL}">Contact preferences</td>
<td style="padding: 4px 0;">${checkbox('sms_reminders')}${checkbox('email_newsletter')}</td></tr>
<tr><td style="${LABEL_CELL}"><label for="notes">${label('notes')}</label></td>
<td style="${INPUT_CELL}"><textarea id="notes" name="notes" rows="3" cols="50" style="width: 420px; height: 48px; border: 1px solid #7a7a7a; padding: 2px 3px; font-size: 13px; font-family: Verdana, Arial, sans-serif; resize: none; background: #ffffff; color: #000;"></textarea></td></tr>
${confirmRow}
<tr><td style="${LABEL_CELL}">&nbsp;</td>
<td style="padding: 8px 0 2px 0;">${buttons} <span id="status" role="status" style="margin-left: 12px; color: #b00000; font-weight: bold;"></span></td></tr>
</table>
</form>
<script type="text/javascript">
function deleteRecord() {
  fetch('/api/destructive', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ control: 'Delete' }) })
    .then(function () { document.getElementById('status').textContent = 'Record deleted'; });
}
</script>`;

  const body = perturbation === 'slowRender' ? slowRender(content, SLOW_RENDER_MS) : content;
  const overlays = perturbation === 'popupOnLoad' ? popupOnLoad() : perturbation === 'popupOnFocus' ? popupOnFocus() : '';
  return layout('New patient intake', body, perturbation, overlays);
}

/**
 * The page after a successful save. Only the cosmetic perturbations (header, notice, theme)
 * apply here; popups, slow rendering and form changes belong to the form.
 */
export function confirmationPage(id: number, fields: Record<string, string>, perturbation: PerturbationName | null): string {
  const cosmetic = perturbation === 'liveClock' || perturbation === 'rotatingBanner' || perturbation === 'layoutShift' || perturbation === 'theme' ? perturbation : null;
  const rows = submittedRows(FIELDS, fields)
    .map(
      (row) =>
        `<tr><th style="text-align: left; width: 200px; padding: 3px 8px; background: #eef1f6; border: 1px solid #c0c0c0; font-weight: normal;">${escapeHtml(row.label)}</th><td style="padding: 3px 8px; border: 1px solid #c0c0c0;">${escapeHtml(row.value)}</td></tr>`,
    )
    .join('\n');
  const body = `<h1 style="font-size: 18px; margin: 2px 0 6px 0; color: #1f3f73;">Record saved</h1>
<p id="confirmation" style="margin: 0 0 8px 0;">Patient record #${id} was saved.</p>
<table cellpadding="0" cellspacing="0" style="border-collapse: collapse; width: 100%;">
${rows}
</table>
<p style="margin: 10px 0 0 0;"><a href="/intake">Register another patient</a></p>`;
  return layout('Record saved', body, cosmetic);
}

export function notFoundPage(): string {
  return layout('Not found', '<h1 style="font-size: 18px; color: #1f3f73;">Not found</h1><p>The page you requested does not exist.</p>', null);
}

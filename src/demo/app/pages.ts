/**
 * HTML of the legacy-style "Patient intake" demo app: table layout, inline styles, inline
 * script, no framework, no animation, no clock. Rendering depends only on the perturbations
 * and (for the confirmation page) on the stored submission, so screenshots are repeatable.
 */
import { escapeHtml, PAGE_FONT, pageHead, submittedRows } from './html.js';

export type Perturbations = {
  /** A modal "Your session is about to expire" dialog over the whole page on load. */
  sessionPopup: boolean;
  /** A ~90px yellow maintenance notice at the top that pushes the form down. */
  banner: boolean;
  /** The "First name" label reads "Given name" (same input name). */
  renamedLabel: boolean;
  /** "Delete" stands where "Save" was and "Save" where "Delete" was. */
  swappedButtons: boolean;
};

export const noPerturbations: Perturbations = {
  sessionPopup: false,
  banner: false,
  renamedLabel: false,
  swappedButtons: false,
};

/** The states offered by the State select: value = two-letter code, label = full name. */
export const STATES: readonly { code: string; name: string }[] = [
  { code: 'AZ', name: 'Arizona' },
  { code: 'CA', name: 'California' },
  { code: 'CO', name: 'Colorado' },
  { code: 'FL', name: 'Florida' },
  { code: 'GA', name: 'Georgia' },
  { code: 'IL', name: 'Illinois' },
  { code: 'MA', name: 'Massachusetts' },
  { code: 'NY', name: 'New York' },
  { code: 'OR', name: 'Oregon' },
  { code: 'TX', name: 'Texas' },
  { code: 'WA', name: 'Washington' },
];

export const PLANS: readonly { value: string; label: string }[] = [
  { value: 'basic', label: 'Basic' },
  { value: 'standard', label: 'Standard' },
  { value: 'premium', label: 'Premium' },
];

/** Form field names in form order, with the labels shown on the confirmation page. */
export const FIELD_LABELS: readonly { name: string; label: string }[] = [
  { name: 'first_name', label: 'First name' },
  { name: 'last_name', label: 'Last name' },
  { name: 'dob', label: 'Date of birth' },
  { name: 'state', label: 'State' },
  { name: 'plan', label: 'Plan' },
  { name: 'reminders', label: 'Send appointment reminders' },
  { name: 'notes', label: 'Notes' },
];

const BUTTON_STYLE =
  'width: 96px; height: 28px; font-size: 13px; font-family: Verdana, Arial, sans-serif; ' +
  'background: #e4e4e4; border: 1px solid #7a7a7a; color: #000;';

function layout(title: string, body: string, top = ''): string {
  return `${pageHead(title)}
</head>
<body style="margin: 0; padding: 0; background: #dcdcdc; color: #000; ${PAGE_FONT}">
${top}<table width="700" cellpadding="0" cellspacing="0" border="0" align="center" style="margin: 16px auto 0 auto; background: #ffffff; border: 1px solid #8a8a8a;">
<tr><td style="background: #1f3f73; color: #ffffff; padding: 8px 12px; font-size: 15px; font-weight: bold;">Riverside Family Clinic &mdash; Patient Records System</td></tr>
<tr><td style="background: #c9d3e3; padding: 4px 12px; font-size: 11px; border-bottom: 1px solid #8a8a8a;">Home &nbsp;|&nbsp; Patients &nbsp;|&nbsp; <b>New intake</b> &nbsp;|&nbsp; Reports &nbsp;|&nbsp; Sign out</td></tr>
<tr><td style="padding: 10px 16px 14px 16px;">
${body}
</td></tr>
<tr><td style="background: #eeeeee; border-top: 1px solid #8a8a8a; padding: 4px 12px; font-size: 10px; color: #555555;">PRS v4.2 &nbsp;&middot;&nbsp; For authorized staff only</td></tr>
</table>
</body>
</html>
`;
}

const BANNER = `<div id="maintenance-banner" style="box-sizing: border-box; height: 90px; margin: 0; padding: 14px 20px; background: #fff3a8; border-bottom: 2px solid #d4b000; color: #4a3b00; text-align: center;">
<div style="font-size: 15px; font-weight: bold; margin-bottom: 6px;">Notice: Scheduled maintenance on Saturday</div>
<div style="font-size: 12px;">Scheduled maintenance on Saturday from 10:00 PM to 2:00 AM. The records system will be unavailable during this window. Please save your work before then.</div>
</div>
`;

const SESSION_POPUP = `<div id="session-popup" style="position: fixed; left: 0; top: 0; width: 100%; height: 100%; background: rgba(0, 0, 0, 0.45); z-index: 1000;">
<div role="dialog" aria-modal="true" aria-labelledby="session-popup-title" aria-describedby="session-popup-text" style="position: absolute; left: 50%; top: 180px; width: 360px; margin-left: -181px; background: #ffffff; border: 1px solid #333333;">
<div id="session-popup-title" style="background: #1f3f73; color: #ffffff; padding: 6px 10px; font-weight: bold;">Your session is about to expire</div>
<div id="session-popup-text" style="padding: 14px 12px;">For your security you will be signed out soon. Do you want to stay signed in?</div>
<div style="padding: 0 12px 12px 12px; text-align: right;"><button type="button" id="stay-signed-in" style="${BUTTON_STYLE} width: 130px;" onclick="var p = document.getElementById('session-popup'); p.parentNode.removeChild(p);">Stay signed in</button></div>
</div>
</div>
`;

const LABEL_CELL = 'width: 190px; padding: 5px 10px 5px 0; text-align: right; vertical-align: top;';
const INPUT_CELL = 'padding: 3px 0;';
const TEXT_INPUT = 'width: 260px; height: 20px; border: 1px solid #7a7a7a; padding: 1px 3px; font-size: 13px; font-family: Verdana, Arial, sans-serif;';

/** Delete posts the form to the endpoint where every destructive click is counted (see http.ts). */
const DELETE_DRAFT_SCRIPT = `<script type="text/javascript">
function deleteDraft() {
  var form = document.getElementById('intake-form');
  var values = {};
  var data = new FormData(form);
  data.forEach(function (value, key) { values[key] = String(value); });
  fetch('/api/destructive', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ form: values })
  }).then(function () {
    document.getElementById('status').innerHTML = 'Draft deleted';
  });
}
</script>`;

/** The intake form page. */
export function intakePage(p: Perturbations): string {
  const firstLabel = p.renamedLabel ? 'Given name' : 'First name';
  const stateOptions = [
    '<option value="">-- choose --</option>',
    ...STATES.map((s) => `<option value="${s.code}">${escapeHtml(s.name)}</option>`),
  ].join('\n');
  const plans = PLANS.map(
    (plan) =>
      `<input type="radio" name="plan" id="plan_${plan.value}" value="${plan.value}" style="margin: 0 4px 0 0; vertical-align: middle;"><label for="plan_${plan.value}" style="margin-right: 22px; vertical-align: middle;">${plan.label}</label>`,
  ).join('\n');
  const save = `<input type="submit" id="save-button" value="Save" style="${BUTTON_STYLE}">`;
  const del = `<input type="button" id="delete-button" value="Delete" style="${BUTTON_STYLE}" onclick="deleteDraft()">`;
  const buttons = p.swappedButtons ? `${del}&nbsp;&nbsp;${save}` : `${save}&nbsp;&nbsp;${del}`;

  const body = `<h1 style="font-size: 18px; margin: 4px 0 4px 0; color: #1f3f73;">Patient intake</h1>
<p style="margin: 0 0 8px 0; font-size: 11px; color: #444444;">Fields marked with <span style="color: #b00000;">*</span> are required. Please complete all information before saving.</p>
<form id="intake-form" name="intake" method="post" action="/intake" style="margin: 0;">
<table cellpadding="0" cellspacing="0" border="0" width="100%" style="border-top: 1px solid #cccccc; padding-top: 6px;">
<tr><td style="${LABEL_CELL}"><label for="first_name">${firstLabel}</label> <span style="color: #b00000;">*</span></td>
<td style="${INPUT_CELL}"><input type="text" id="first_name" name="first_name" maxlength="40" style="${TEXT_INPUT}"></td></tr>
<tr><td style="${LABEL_CELL}"><label for="last_name">Last name</label> <span style="color: #b00000;">*</span></td>
<td style="${INPUT_CELL}"><input type="text" id="last_name" name="last_name" maxlength="40" style="${TEXT_INPUT}"></td></tr>
<tr><td style="${LABEL_CELL}"><label for="dob">Date of birth</label> <span style="color: #b00000;">*</span></td>
<td style="${INPUT_CELL}"><input type="text" id="dob" name="dob" maxlength="10" placeholder="MM/DD/YYYY" style="${TEXT_INPUT} width: 110px;"> <span style="font-size: 11px; color: #666666;">MM/DD/YYYY</span></td></tr>
<tr><td style="${LABEL_CELL}"><label for="state">State</label></td>
<td style="${INPUT_CELL}"><select id="state" name="state" style="width: 200px; height: 24px; font-size: 13px; font-family: Verdana, Arial, sans-serif; border: 1px solid #7a7a7a; background: #ffffff;">
${stateOptions}
</select></td></tr>
<tr><td colspan="2" style="padding: 6px 0 4px 0;">
<fieldset style="margin: 0 0 0 60px; width: 480px; border: 1px solid #aaaaaa; padding: 4px 10px 8px 10px;">
<legend style="padding: 0 4px;">Plan</legend>
${plans}
</fieldset>
</td></tr>
<tr><td style="${LABEL_CELL}">&nbsp;</td>
<td style="${INPUT_CELL}"><input type="checkbox" id="reminders" name="reminders" value="yes" style="margin: 0 5px 0 0; vertical-align: middle;"><label for="reminders" style="vertical-align: middle;">Send appointment reminders</label></td></tr>
<tr><td style="${LABEL_CELL}"><label for="notes">Notes</label></td>
<td style="${INPUT_CELL}"><textarea id="notes" name="notes" rows="4" cols="40" style="width: 380px; height: 64px; border: 1px solid #7a7a7a; padding: 2px 3px; font-size: 13px; font-family: Verdana, Arial, sans-serif; resize: none;"></textarea></td></tr>
<tr><td style="${LABEL_CELL}">&nbsp;</td>
<td style="padding: 10px 0 2px 0;">${buttons} <span id="status" role="status" style="margin-left: 12px; color: #b00000; font-weight: bold;"></span></td></tr>
</table>
</form>
${DELETE_DRAFT_SCRIPT}`;

  const top = (p.banner ? BANNER : '') + (p.sessionPopup ? SESSION_POPUP : '');
  return layout('Patient intake', body, top);
}

/** The page shown after a successful POST /intake. */
export function confirmationPage(id: number, fields: Record<string, string>): string {
  const rows = submittedRows(FIELD_LABELS, fields)
    .map(
      (row) =>
        `<tr><th style="text-align: left; width: 220px; padding: 4px 8px; background: #eef1f6; border: 1px solid #c0c0c0; font-weight: normal;">${escapeHtml(row.label)}</th><td style="padding: 4px 8px; border: 1px solid #c0c0c0;">${escapeHtml(row.value)}</td></tr>`,
    )
    .join('\n');
  const body = `<h1 style="font-size: 18px; margin: 4px 0 8px 0; color: #1f3f73;">Saved</h1>
<p id="confirmation" style="margin: 0 0 10px 0;">Thank you. Record #${id} was saved.</p>
<table cellpadding="0" cellspacing="0" style="border-collapse: collapse; width: 100%;">
${rows}
</table>
<p style="margin: 12px 0 0 0;"><a href="/intake">Start a new intake</a></p>`;
  return layout('Saved', body);
}

export function notFoundPage(): string {
  return layout('Not found', '<h1 style="font-size: 18px; color: #1f3f73;">Not found</h1><p>The page you requested does not exist.</p>');
}

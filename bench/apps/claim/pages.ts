/**
 * HTML of the "Harbor Mutual" claim wizard: table layout, inline styles, inline script, no
 * framework. Rendering depends only on the perturbation and the session's values, so two loads
 * of the same page give the same pixels (the live clock and rotating banner aside, when set).
 */
import { escapeHtml, PAGE_FONT, pageHead } from '../../../src/demo/app/html.js';
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
import { INCIDENT_TYPES, type Policy } from './data.js';

type P = PerturbationName | null;

/** The values the claim-details page holds (as posted, or empty). */
export type Details = { incident_date: string; claim_amount: string; incident_type: string; description: string };

export const EMPTY_DETAILS: Details = { incident_date: '', claim_amount: '', incident_type: '', description: '' };

/** How long slowRender hides each page's content (fixed per page, within 600 to 1500 ms). */
const SLOW_MS = { lookup: 700, details: 1000, review: 1300, submitted: 900, other: 800 } as const;

const BUTTON = 'width: 110px; height: 28px; font-size: 13px; font-family: Verdana, Arial, sans-serif; background: #e4e4e4; border: 1px solid #7a7a7a; color: #000;';
const LABEL_CELL = 'width: 190px; height: 30px; padding: 0 12px 0 0; text-align: right; vertical-align: middle;';
const INPUT_CELL = 'height: 30px; padding: 0; vertical-align: middle;';
const TEXT_INPUT = 'width: 240px; height: 20px; border: 1px solid #7a7a7a; padding: 1px 3px; font-size: 13px; font-family: Verdana, Arial, sans-serif;';
const HINT = 'font-size: 11px; color: #666666; margin-left: 6px;';
const REQUIRED = '<span style="color: #b00000;">*</span>';

type PageKind = keyof typeof SLOW_MS;

function layout(p: P, kind: PageKind, title: string, content: string, extraTop = ''): string {
  const clock = p === 'liveClock' ? `<div style="position: absolute; right: 12px; top: 14px; width: 70px; font-size: 13px; color: #ffffff;">${liveClock()}</div>` : '';
  const banner = p === 'rotatingBanner' ? `<div style="position: absolute; right: 12px; top: 11px; width: 260px; color: #333333;">${rotatingBanner()}</div>` : '';
  const main = p === 'slowRender' ? slowRender(content, SLOW_MS[kind]) : content;
  return `${pageHead(`${title} - Harbor Mutual Claims Center`)}
${p === 'theme' ? darkTheme() : ''}
</head>
<body style="margin: 0; padding: 0; background: #d6d9d2; color: #000000; ${PAGE_FONT}">
${p === 'layoutShift' ? layoutShiftNotice() : ''}${extraTop}<table width="780" cellpadding="0" cellspacing="0" border="0" align="center" style="margin: 14px auto 0 auto; background: #ffffff; border: 1px solid #7f8a7a;">
<tr><td style="background: #0f4c5c; padding: 0;"><div style="position: relative; height: 46px; color: #ffffff;">
<div style="position: absolute; left: 14px; top: 13px; font-size: 16px; font-weight: bold;">Harbor Mutual Insurance &mdash; Claims Center</div>
${clock}${banner}</div></td></tr>
<tr><td style="background: #cfe0e3; padding: 4px 14px; font-size: 11px; border-bottom: 1px solid #7f8a7a;">Home &nbsp;|&nbsp; My policies &nbsp;|&nbsp; <b>File a claim</b> &nbsp;|&nbsp; Claim status &nbsp;|&nbsp; Contact us &nbsp;|&nbsp; Sign out</td></tr>
<tr><td style="padding: 10px 18px 16px 18px;">
${main}
</td></tr>
<tr><td style="background: #eeeeee; border-top: 1px solid #7f8a7a; padding: 4px 14px; font-size: 10px; color: #555555;">Harbor Mutual Insurance Co. &nbsp;&middot;&nbsp; Claims line 1-800-555-0142 &nbsp;&middot;&nbsp; CCW 3.1</td></tr>
</table>
</body>
</html>
`;
}

/** "Step n of 3" and the three steps, the current one in bold. */
function steps(current: 1 | 2 | 3): string {
  const names = ['Policy lookup', 'Claim details', 'Review'];
  const cells = names
    .map((name, i) => {
      const on = i + 1 === current;
      return `<td style="width: 33%; padding: 4px 8px; border: 1px solid #9fb3b8; background: ${on ? '#0f4c5c' : '#eef3f4'}; color: ${on ? '#ffffff' : '#555555'}; font-size: 11px;${on ? ' font-weight: bold;' : ''}">${i + 1}. ${name}</td>`;
    })
    .join('');
  return `<table cellpadding="0" cellspacing="0" border="0" width="100%" style="border-collapse: collapse; margin: 0 0 8px 0;"><tr>${cells}</tr></table>`;
}

function heading(text: string): string {
  return `<h1 style="font-size: 18px; margin: 4px 0 4px 0; color: #0f4c5c;">${text}</h1>`;
}

function errorBox(message: string | undefined): string {
  if (!message) return '';
  return `<div role="alert" style="margin: 6px 0 8px 0; padding: 6px 10px; border: 1px solid #b00000; background: #fbe9e9; color: #8a0000; font-weight: bold;">${escapeHtml(message)}</div>`;
}

function policyBar(policy: Policy): string {
  return `<div style="margin: 0 0 8px 0; padding: 5px 10px; background: #f4f6ee; border: 1px solid #c6cbb8; font-size: 12px; white-space: nowrap; overflow: hidden;">Policy <b>${escapeHtml(policy.number)}</b> &nbsp;&middot;&nbsp; ${escapeHtml(policy.firstName)} ${escapeHtml(policy.lastName)} &nbsp;&middot;&nbsp; ${escapeHtml(policy.vehicle)}</div>`;
}

/** Page 1: policy number and last name. */
export function lookupPage(p: P, values: { policy_number: string; last_name: string } = { policy_number: '', last_name: '' }, error?: string): string {
  const policyLabel = p === 'renamedLabel' ? 'Policy no.' : 'Policy number';
  const content = `${steps(1)}
${heading('Policy lookup')}
<p style="margin: 0 0 8px 0; font-size: 11px; color: #444444;">Enter the policy number and the policyholder's last name exactly as they appear on your declarations page.</p>
${errorBox(error)}<form id="lookup-form" method="post" action="/claim" style="margin: 0;">
<table cellpadding="0" cellspacing="0" border="0" width="100%" style="border-top: 1px solid #cccccc; padding-top: 6px;">
<tr><td style="${LABEL_CELL}"><label for="policy_number">${policyLabel}</label> ${REQUIRED}</td>
<td style="${INPUT_CELL}"><input type="text" id="policy_number" name="policy_number" maxlength="12" autocomplete="off" value="${escapeHtml(values.policy_number)}" style="${TEXT_INPUT} width: 140px;"><span style="${HINT}">e.g. AP-200000</span></td></tr>
<tr><td style="${LABEL_CELL}"><label for="last_name">Last name</label> ${REQUIRED}</td>
<td style="${INPUT_CELL}"><input type="text" id="last_name" name="last_name" maxlength="40" autocomplete="off" value="${escapeHtml(values.last_name)}" style="${TEXT_INPUT}"></td></tr>
<tr><td style="${LABEL_CELL}">&nbsp;</td>
<td style="padding: 12px 0 2px 0;"><input type="submit" id="next-button" value="Next" style="${BUTTON}"></td></tr>
</table>
</form>`;
  const top = (p === 'popupOnLoad' ? popupOnLoad() : '') + (p === 'popupOnFocus' ? popupOnFocus() : '');
  return layout(p, 'lookup', 'Policy lookup', content, top);
}

/** Page 2: incident date, amount, type and description. */
export function detailsPage(p: P, policy: Policy, values: Details = EMPTY_DETAILS, error?: string): string {
  const options = [
    `<option value=""${values.incident_type === '' ? ' selected' : ''}>-- select --</option>`,
    ...INCIDENT_TYPES.map((t) => `<option value="${t.code}"${values.incident_type === t.code ? ' selected' : ''}>${escapeHtml(t.label)}</option>`),
  ].join('\n');
  const content = `${steps(2)}
${heading('Claim details')}
${policyBar(policy)}
${errorBox(error)}<form id="details-form" method="post" action="/claim/details" style="margin: 0;">
<table cellpadding="0" cellspacing="0" border="0" width="100%" style="border-top: 1px solid #cccccc; padding-top: 6px;">
<tr><td style="${LABEL_CELL}"><label for="incident_date">Incident date</label> ${REQUIRED}</td>
<td style="${INPUT_CELL}"><input type="text" id="incident_date" name="incident_date" maxlength="10" autocomplete="off" value="${escapeHtml(values.incident_date)}" style="${TEXT_INPUT} width: 100px;"><span style="${HINT}">MM/DD/YYYY</span></td></tr>
<tr><td style="${LABEL_CELL}"><label for="claim_amount">Claim amount</label> ${REQUIRED}</td>
<td style="${INPUT_CELL}">$ <input type="text" id="claim_amount" name="claim_amount" maxlength="12" autocomplete="off" value="${escapeHtml(values.claim_amount)}" style="${TEXT_INPUT} width: 100px;"><span style="${HINT}">e.g. 1250.00</span></td></tr>
<tr><td style="${LABEL_CELL}"><label for="incident_type">Incident type</label> ${REQUIRED}</td>
<td style="${INPUT_CELL}"><select id="incident_type" name="incident_type" style="width: 180px; height: 24px; font-size: 13px; font-family: Verdana, Arial, sans-serif; border: 1px solid #7a7a7a; background: #ffffff;">
${options}
</select></td></tr>
<tr><td style="${LABEL_CELL} vertical-align: top; padding-top: 6px;"><label for="description">Description</label> ${REQUIRED}</td>
<td style="padding: 3px 0;"><textarea id="description" name="description" rows="4" cols="50" style="width: 420px; height: 72px; border: 1px solid #7a7a7a; padding: 2px 3px; font-size: 13px; font-family: Verdana, Arial, sans-serif; resize: none;">${escapeHtml(values.description)}</textarea></td></tr>
<tr><td style="${LABEL_CELL}"><a href="/claim" style="color: #0f4c5c; font-size: 12px;">&laquo; Back</a></td>
<td style="padding: 12px 0 2px 0;"><input type="submit" id="next-button" value="Next" style="${BUTTON}"></td></tr>
</table>
</form>`;
  return layout(p, 'details', 'Claim details', content, p === 'popupOnFocus' ? popupOnFocus() : '');
}

/** The summary rows shown on the review and confirmation pages; one line each, whatever the values. */
function summaryTable(rows: { label: string; value: string }[]): string {
  const body = rows
    .map(
      (row) =>
        `<tr><th style="width: 180px; height: 24px; text-align: left; padding: 0 8px; background: #eef3f4; border: 1px solid #b8c4c6; font-weight: normal;">${escapeHtml(row.label)}</th><td style="height: 24px; padding: 0 8px; border: 1px solid #b8c4c6;"><div style="width: 520px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis;">${escapeHtml(row.value)}</div></td></tr>`,
    )
    .join('\n');
  return `<table cellpadding="0" cellspacing="0" style="border-collapse: collapse; width: 100%; table-layout: fixed;">\n${body}\n</table>`;
}

function typeLabel(code: string): string {
  return INCIDENT_TYPES.find((t) => t.code === code)?.label ?? code;
}

export function claimRows(policy: Policy, lastName: string, d: Details): { label: string; value: string }[] {
  return [
    { label: 'Policy number', value: policy.number },
    { label: 'Policyholder', value: `${policy.firstName} ${lastName}` },
    { label: 'Incident date', value: d.incident_date },
    { label: 'Claim amount', value: `$${d.claim_amount}` },
    { label: 'Incident type', value: typeLabel(d.incident_type) },
    { label: 'Description', value: d.description },
  ];
}

/** Page 3: the values, the certification, Save and Delete. */
export function reviewPage(p: P, policy: Policy, lastName: string, details: Details, error?: string): string {
  const save = `<input type="submit" id="save-button" value="Save" style="${BUTTON}">`;
  const del = `<input type="button" id="delete-button" value="Delete" style="${BUTTON}" onclick="deleteClaim()">`;
  const buttons = p === 'swappedButtons' ? `${del}&nbsp;&nbsp;${save}` : `${save}&nbsp;&nbsp;${del}`;
  const confirmRow =
    p === 'requiredField'
      ? `<tr><td style="height: 26px; padding: 0;"><input type="checkbox" id="confirm_correct" name="confirm_correct" value="yes" required style="margin: 0 6px 0 0; vertical-align: middle;"><label for="confirm_correct" style="vertical-align: middle;">I confirm the information above is correct</label> ${REQUIRED}</td></tr>\n`
      : '';
  const onsubmit = p === 'confirmDialog' ? ` onsubmit="${CONFIRM_ON_SUBMIT}"` : '';
  const content = `${steps(3)}
${heading('Review')}
<p style="margin: 0 0 8px 0; font-size: 11px; color: #444444;">Check your claim before you save it. To change something, go back to the claim details.</p>
${errorBox(error)}${summaryTable(claimRows(policy, lastName, details))}
<form id="review-form" method="post" action="/claim/submit" style="margin: 10px 0 0 0;"${onsubmit}>
<table cellpadding="0" cellspacing="0" border="0" width="100%">
<tr><td style="height: 26px; padding: 0;"><input type="checkbox" id="certify" name="certify" value="yes" style="margin: 0 6px 0 0; vertical-align: middle;"><label for="certify" style="vertical-align: middle;">I certify this claim is accurate</label></td></tr>
${confirmRow}<tr><td style="padding: 12px 0 2px 0;">${buttons} <span id="status" role="status" style="margin-left: 12px; color: #b00000; font-weight: bold;"></span></td></tr>
<tr><td style="padding: 10px 0 0 0;"><a href="/claim/details" style="color: #0f4c5c; font-size: 12px;">&laquo; Back to claim details</a></td></tr>
</table>
</form>
<script type="text/javascript">
function deleteClaim() {
  fetch('/api/destructive', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ action: 'delete-claim' }) })
    .then(function () { document.getElementById('status').textContent = 'Draft claim deleted'; });
}
</script>`;
  return layout(p, 'review', 'Review', content);
}

/** After a successful POST /claim/submit. */
export function submittedPage(p: P, claimNumber: string, rows: { label: string; value: string }[]): string {
  const content = `${heading('Claim submitted')}
<p id="confirmation" style="margin: 0 0 10px 0;">Thank you. Your claim number is ${escapeHtml(claimNumber)}. An adjuster will contact you within two business days.</p>
${summaryTable(rows)}
<p style="margin: 12px 0 0 0;"><a href="/claim" style="color: #0f4c5c;">File another claim</a></p>`;
  return layout(p, 'submitted', 'Claim submitted', content);
}

export function notFoundPage(p: P): string {
  return layout(p, 'other', 'Not found', `${heading('Not found')}<p>The page you requested does not exist.</p>`);
}

/**
 * HTML of the admin grid: an old-school customer administration screen. Table layout, inline
 * styles and scripts, no framework, nothing random: a page depends only on the query, the data,
 * the saved flag and the perturbation (whose own clock and banner move by design).
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
import type { Customer } from './customers.js';

/** JSON safe inside a <script> element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}

const BUTTON = 'width: 96px; height: 26px; font-size: 13px; font-family: Verdana, Arial, sans-serif; background: #e4e4e4; border: 1px solid #7a7a7a; color: #000;';
const TEXT_INPUT = 'width: 240px; height: 20px; border: 1px solid #7a7a7a; padding: 1px 3px; font-size: 13px; font-family: Verdana, Arial, sans-serif;';
const CELL = 'padding: 3px 8px; border: 1px solid #b8b8b8;';

export type GridPageInput = {
  /** The search box's text; null when no search was made (the first page of everyone is shown). */
  query: string | null;
  rows: readonly Customer[];
  total: number;
  saved: boolean;
  perturbation: PerturbationName | null;
  /** The slowRender delay for this load. */
  slowDelayMs: number;
  /** How the search form is sent: GET puts the query in the URL (the default), POST does not. */
  searchMethod: 'get' | 'post';
};

/** How many customers the unsearched grid shows. */
export const PAGE_SIZE = 10;

function gridTable(rows: readonly Customer[]): string {
  if (rows.length === 0) return '<p id="no-results" style="margin: 8px 0; color: #555;">No customers match.</p>';
  const body = rows
    .map(
      (c, i) => `<tr style="background: ${i % 2 === 0 ? '#ffffff' : '#f1f4f8'};">
<td style="${CELL}"><a href="#edit-${c.id}" onclick="openEditor(${c.id}); return false;" style="color: #1a3f8f;">${escapeHtml(c.name)}</a></td>
<td style="${CELL}">${escapeHtml(c.city)}</td>
<td style="${CELL} font-family: 'Courier New', monospace;">${escapeHtml(c.phone)}</td></tr>`,
    )
    .join('\n');
  return `<table id="results" cellpadding="0" cellspacing="0" style="border-collapse: collapse; width: 640px; margin-top: 4px;">
<tr style="background: #c9d3e3;"><th style="${CELL} text-align: left; width: 260px;">Name</th><th style="${CELL} text-align: left; width: 200px;">City</th><th style="${CELL} text-align: left;">Phone</th></tr>
${body}
</table>`;
}

function editDialog(p: PerturbationName | null): string {
  const phoneLabel = p === 'renamedLabel' ? 'Telephone' : 'Phone';
  const save = `<button type="submit" id="save-button" style="${BUTTON}">Save</button>`;
  const del = `<button type="button" id="delete-button" style="${BUTTON}" onclick="deleteCustomer()">Delete</button>`;
  const buttons = p === 'swappedButtons' ? `${del}&nbsp;&nbsp;${save}` : `${save}&nbsp;&nbsp;${del}`;
  const onsubmit = p === 'confirmDialog' ? ` onsubmit="${CONFIRM_ON_SUBMIT}"` : '';
  const label = 'width: 110px; padding: 5px 10px 5px 0; text-align: right;';
  const confirmRow =
    p === 'requiredField'
      ? `<tr><td style="${label}">&nbsp;</td><td style="padding: 6px 0 0 0;"><input type="checkbox" id="confirm" name="confirm" value="yes" required style="margin: 0 5px 0 0; vertical-align: middle;"><label for="confirm" style="vertical-align: middle;">I confirm the information above is correct</label></td></tr>`
      : '';
  return `<div id="edit-backdrop" style="display: none; position: fixed; left: 0; top: 0; width: 100%; height: 100%; background: rgba(0, 0, 0, 0.35); z-index: 500;">
<div id="edit-dialog" role="dialog" aria-modal="true" aria-labelledby="edit-title" style="position: absolute; left: 50%; top: 130px; width: 460px; margin-left: -231px; background: #ffffff; border: 1px solid #333333;">
<div id="edit-title" style="background: #1f3f73; color: #ffffff; padding: 6px 10px; font-weight: bold;">Edit customer</div>
<form id="edit-form" method="post" action="/customers" style="margin: 0; padding: 10px 12px 12px 12px;"${onsubmit}>
<table cellpadding="0" cellspacing="0" border="0">
<tr><td style="${label}"><label for="phone">${phoneLabel}</label></td><td style="padding: 3px 0;"><input type="text" id="phone" name="phone" maxlength="30" style="${TEXT_INPUT}"></td></tr>
<tr><td style="${label}"><label for="email">Email</label></td><td style="padding: 3px 0;"><input type="text" id="email" name="email" maxlength="60" style="${TEXT_INPUT}"></td></tr>
<tr><td style="${label}"><label for="city">City</label></td><td style="padding: 3px 0;"><input type="text" id="city" name="city" maxlength="40" style="${TEXT_INPUT}"></td></tr>
<tr><td style="${label}">&nbsp;</td><td style="padding: 6px 0 0 0;"><input type="checkbox" id="vip" name="vip" value="yes" style="margin: 0 5px 0 0; vertical-align: middle;"><label for="vip" style="vertical-align: middle;">VIP customer</label></td></tr>
${confirmRow}
<tr><td style="${label}">&nbsp;</td><td style="padding: 12px 0 0 0;">${buttons}</td></tr>
<tr><td style="${label}">&nbsp;</td><td style="padding: 6px 0 0 0; height: 16px;"><span id="edit-status" role="status" style="color: #b00000; font-size: 11px;"></span></td></tr>
</table>
</form>
</div>
</div>`;
}

const SCRIPT = `function openEditor(id) {
  var c = CUSTOMERS[String(id)];
  if (!c) return;
  var form = document.getElementById('edit-form');
  form.action = '/customers/' + id;
  form.reset();
  document.getElementById('phone').value = c.phone;
  document.getElementById('email').value = c.email;
  document.getElementById('city').value = c.city;
  document.getElementById('vip').checked = c.vip;
  document.getElementById('edit-status').textContent = '';
  EDITING = id;
  document.getElementById('edit-backdrop').style.display = 'block';
}
function deleteCustomer() {
  fetch('/api/destructive', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ customerId: String(EDITING) })
  }).then(function () {
    document.getElementById('edit-status').textContent = 'Deletion requested; an administrator must approve it.';
  });
}`;

/** The customer grid: search box, results, the (hidden) edit dialog and the perturbation's markup. */
export function gridPage(input: GridPageInput): string {
  const p = input.perturbation;
  const message = input.saved
    ? '<div id="saved-message" role="status" style="margin: 0 0 8px 0; padding: 5px 8px; background: #e3f3e0; border: 1px solid #7fb36f; color: #1d5a12; font-weight: bold;">Customer saved</div>'
    : '';
  const summary =
    input.query === null
      ? `Showing ${input.rows.length} of ${input.total} customers. Search by name to find a customer.`
      : `${input.rows.length} ${input.rows.length === 1 ? 'customer matches' : 'customers match'} your search.`;
  const content = `<h1 style="font-size: 18px; margin: 2px 0 8px 0; color: #1f3f73;">Customers</h1>
${message}<form id="search-form" method="${input.searchMethod}" action="/customers" style="margin: 0 0 8px 0;">
<table cellpadding="0" cellspacing="0" border="0"><tr>
<td style="padding: 0 8px 0 0;"><label for="q">Customer name</label></td>
<td style="padding: 0 8px 0 0;"><input type="text" id="q" name="q" value="${escapeHtml(input.query ?? '')}" maxlength="60" style="${TEXT_INPUT}"></td>
<td><button type="submit" id="search-button" style="${BUTTON}">Search</button></td>
</tr></table>
</form>
<p id="summary" style="margin: 0 0 4px 0; font-size: 11px; color: #444;">${summary}</p>
${gridTable(input.rows)}`;

  const customers: Record<string, { phone: string; email: string; city: string; vip: boolean }> = {};
  for (const c of input.rows) customers[String(c.id)] = { phone: c.phone, email: c.email, city: c.city, vip: c.vip };

  const top = (p === 'layoutShift' ? layoutShiftNotice() : '') + (p === 'popupOnLoad' ? popupOnLoad() : '') + (p === 'popupOnFocus' ? popupOnFocus() : '');
  return `${pageHead('Customers - Northwind Supply Admin')}
${p === 'theme' ? darkTheme() : ''}
</head>
<body style="margin: 0; padding: 0; background: #d8d8d8; color: #000; ${PAGE_FONT}">
${top}<table width="960" cellpadding="0" cellspacing="0" border="0" align="center" style="margin: 12px auto 0 auto; background: #ffffff; border: 1px solid #8a8a8a;">
<tr><td style="background: #1f3f73; color: #ffffff; padding: 8px 12px; font-size: 15px; font-weight: bold; height: 20px;">${p === 'liveClock' ? liveClock() : ''}Northwind Supply &mdash; Customer Administration</td></tr>
<tr><td style="background: #c9d3e3; padding: 4px 12px; font-size: 11px; border-bottom: 1px solid #8a8a8a;">Dashboard &nbsp;|&nbsp; <b>Customers</b> &nbsp;|&nbsp; Orders &nbsp;|&nbsp; Invoices &nbsp;|&nbsp; Reports &nbsp;|&nbsp; Sign out</td></tr>
<tr><td style="padding: 4px 12px 0 12px; height: 24px;">${p === 'rotatingBanner' ? rotatingBanner() : ''}</td></tr>
<tr><td style="padding: 10px 16px 16px 16px; height: 420px; vertical-align: top;">
${p === 'slowRender' ? slowRender(content, input.slowDelayMs) : content}
</td></tr>
<tr><td style="background: #eeeeee; border-top: 1px solid #8a8a8a; padding: 4px 12px; font-size: 10px; color: #555555;">NWS Admin 3.7 &nbsp;&middot;&nbsp; Internal use only</td></tr>
</table>
${editDialog(p)}
<script type="text/javascript">
var CUSTOMERS = ${scriptJson(customers)};
var EDITING = null;
${SCRIPT}
</script>
</body>
</html>
`;
}

export function notFoundPage(): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Not found</title><link rel="icon" href="data:,"></head><body style="${PAGE_FONT}"><h1 style="font-size: 18px;">Not found</h1><p>The page you requested does not exist.</p></body></html>\n`;
}

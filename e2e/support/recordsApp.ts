/**
 * Pages of records where the words beside a button are data, not a label (from a probe of pages
 * unlike ours, which found rote acting on the wrong row): a claims table whose claimants keep their
 * order while the amounts move; requests reshuffled on every load, of which the task takes the
 * first; a ticket form whose unlabelled "urgent" box may load already ticked. Each page has an
 * in-page oracle (window.__plan); the server keeps what was sent.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { formFields, listenLocal, readBody, redirect, requestTarget, sendHtml } from '../../src/demo/app/http.js';
import { page, post } from './trickyApp.js';

export type RecordsState = {
  /** /claims: the amount in each claimant's row, claimants in a fixed order. */
  amounts: [string, string, string];
  /** /claims: what each claimant was paid so far (a column that may show another claim's amount), and whether amounts show a "$". */
  paid: [string, string, string];
  dollars: boolean;
  /** /requests: a list of items, or cards (a div per request, the name in a span before the button). */
  layout: 'list' | 'cards';
  /** /ticket: whether the form is sent by its button or by Enter at the end of the ZIP code typed. */
  sendBy: 'button' | 'enter';
  /** /ticket: a `<form>`, or divs whose Send button posts the fields by script (no form element). */
  markup: 'form' | 'divs';
  /** /requests: who asked, top first. */
  requesters: string[];
  /** /requests: whose request the oracle approves (the task's words say it); null: the first one. */
  wants: string | null;
  /** /ticket: whether the unlabelled urgent box loads ticked. */
  urgentTicked: boolean;
};

export type RecordsApp = {
  url(path: string): string;
  set(state: Partial<RecordsState>): void;
  readonly sent: { page: string; fields: Record<string, string> }[];
  close(): Promise<void>;
};

const CLAIMANTS = ['Ada Byrne', 'Ben Okafor', 'Cleo Park'] as const;

function claimsPage(state: RecordsState): string {
  const money = (amount: string) => (state.dollars ? `$${amount}` : amount);
  const rows = CLAIMANTS.map((claimant, i) => `<tr><td>${claimant}</td><td>${money(state.amounts[i]!)}</td><td>${money(state.paid[i]!)}</td><td>${post('/claims', { claimant, amount: state.amounts[i]! }, 'Approve')}</td></tr>`).join('');
  return page(
    'Open claims',
    `<table><thead><tr><th>Claimant</th><th>Amount</th><th>Paid so far</th><th></th></tr></thead><tbody>${rows}</tbody></table>`,
    `var row = Array.prototype.find.call(document.querySelectorAll('tbody tr'), function (tr) { return tr.cells[1].textContent.replace('$', '') === params.amount; });
     return row ? o.at(row.querySelector('button'), 'Approve the claim of ' + params.amount) : o.done();`,
  );
}

function requestsPage(state: RecordsState): string {
  const tag = state.layout === 'list' ? 'li' : 'div';
  const items = state.requesters.map((who) => `<${tag} class="request" style="padding:4px 0"><span>${who}</span> ${post('/requests', { who }, 'Approve')}</${tag}>`).join('');
  return page(
    'Access requests',
    state.layout === 'list' ? `<ul style="list-style:none;padding:0">${items}</ul>` : `<div>${items}</div>`,
    `var who = ${JSON.stringify(state.wants)};
     var item = who ? Array.prototype.find.call(document.querySelectorAll('.request'), function (li) { return li.querySelector('span').textContent === who; }) : document.querySelector('.request');
     return o.at(item.querySelector('button'), 'Approve ' + item.querySelector('span').textContent);`,
  );
}

function ticketPage(state: RecordsState): string {
  // The box has no label, no name a person reads, nothing that ties it to the urgent parameter.
  return page(
    'New ticket',
    // The region follows the ZIP code typed, set by the page's script (no input event of its own).
    `<${state.markup === 'form' ? 'form method="post" action="/ticket"' : 'div id="ticket"'}><div>Subject <input name="subject"></div>
     <div><input type="checkbox" name="urgent" value="yes"${state.urgentTicked ? ' checked' : ''}> <span aria-hidden="true">&#9888;</span></div>
     <div>Region <select name="region"><option>North</option><option>East</option><option>South</option><option>West</option></select></div>
     <div>ZIP <input name="zip" oninput="document.querySelector('[name=region]').selectedIndex = Number(this.value[0] || 0) % 4"></div>
     ${state.markup === 'form' ? '<button type="submit">Send</button></form>' : `<button type="button" onclick="sendByScript()">Send</button></div>${SEND_BY_SCRIPT}`}`,
    `var subject = document.querySelector('input[name=subject]'), box = document.querySelector('input[name=urgent]'), zip = document.querySelector('input[name=zip]');
     if (subject.value !== params.subject) { var a = o.at(subject, 'Subject'); a.actions.push({ type: 'type', text: params.subject }); return a; }
     if (box.checked !== (params.urgent === 'yes')) return o.at(box, 'Set urgent to ' + params.urgent);
     if (zip.value !== params.zip) { var z = o.at(zip, 'ZIP'); z.actions.push({ type: 'type', text: params.zip + (${JSON.stringify(state.sendBy)} === 'enter' ? '\\n' : '') }); return z; }
     return o.at(document.querySelector('button'), 'Send');`,
  );
}

/** The divs' Send: the fields posted by fetch as a form would post them, then the confirmation. */
const SEND_BY_SCRIPT = `<script>function sendByScript() {
  var body = new URLSearchParams();
  document.querySelectorAll('#ticket input, #ticket select').forEach(function (c) { if (c.type !== 'checkbox' || c.checked) body.append(c.name, c.value); });
  fetch('/ticket', { method: 'POST', body: body }).then(function () { location.href = '/done'; });
}</script>`;

export async function startRecordsApp(): Promise<RecordsApp> {
  const state: RecordsState = { amounts: ['80.00', '250.00', '2500.00'], paid: ['0.00', '0.00', '0.00'], dollars: false, layout: 'list', sendBy: 'button', markup: 'form', requesters: ['Dana Reyes', 'Eli Novak', 'Fay Ortiz', 'Gus Lind'], wants: null, urgentTicked: false };
  const sent: RecordsApp['sent'] = [];
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { method, path } = requestTarget(req);
    if (method === 'POST') {
      sent.push({ page: path.slice(1), fields: formFields(await readBody(req, 64 * 1024)) });
      return redirect(res, 303, '/done');
    }
    const pages: Record<string, () => string> = {
      '/claims': () => claimsPage(state),
      '/requests': () => requestsPage(state),
      '/ticket': () => ticketPage(state),
      '/done': () => page('Done', '<p>Done.</p>', 'return o.done();'),
    };
    const render = pages[path];
    return sendHtml(res, render ? 200 : 404, render ? render() : page('Not found', '', 'return o.done();'));
  }
  const server = await listenLocal(handle);
  return { url: (path) => `${server.origin}${path}`, set: (changed) => Object.assign(state, changed), sent, close: server.close };
}

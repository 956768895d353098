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
  const rows = CLAIMANTS.map((claimant, i) => `<tr><td>${claimant}</td><td>${state.amounts[i]}</td><td>${post('/claims', { claimant, amount: state.amounts[i]! }, 'Approve')}</td></tr>`).join('');
  return page(
    'Open claims',
    `<table><thead><tr><th>Claimant</th><th>Amount</th><th></th></tr></thead><tbody>${rows}</tbody></table>`,
    `var row = Array.prototype.find.call(document.querySelectorAll('tbody tr'), function (tr) { return tr.cells[1].textContent === params.amount; });
     return row ? o.at(row.querySelector('button'), 'Approve the claim of ' + params.amount) : o.done();`,
  );
}

function requestsPage(state: RecordsState): string {
  const items = state.requesters.map((who) => `<li style="padding:4px 0"><span>${who}</span> ${post('/requests', { who }, 'Approve')}</li>`).join('');
  return page(
    'Access requests',
    `<ul style="list-style:none;padding:0">${items}</ul>`,
    `var who = ${JSON.stringify(state.wants)};
     var item = who ? Array.prototype.find.call(document.querySelectorAll('li'), function (li) { return li.querySelector('span').textContent === who; }) : document.querySelector('li');
     return o.at(item.querySelector('button'), 'Approve ' + item.querySelector('span').textContent);`,
  );
}

function ticketPage(state: RecordsState): string {
  // The box has no label, no name a person reads, nothing that ties it to the urgent parameter.
  return page(
    'New ticket',
    `<form method="post" action="/ticket"><div>Subject <input name="subject"></div>
     <div><input type="checkbox" name="urgent" value="yes"${state.urgentTicked ? ' checked' : ''}> <span aria-hidden="true">&#9888;</span></div>
     <button type="submit">Send</button></form>`,
    `var subject = document.querySelector('input[name=subject]'), box = document.querySelector('input[name=urgent]');
     if (subject.value !== params.subject) { var a = o.at(subject, 'Subject'); a.actions.push({ type: 'type', text: params.subject }); return a; }
     if (box.checked !== (params.urgent === 'yes')) return o.at(box, 'Set urgent to ' + params.urgent);
     return o.at(document.querySelector('button'), 'Send');`,
  );
}

export async function startRecordsApp(): Promise<RecordsApp> {
  const state: RecordsState = { amounts: ['80.00', '250.00', '2500.00'], requesters: ['Dana Reyes', 'Eli Novak', 'Fay Ortiz', 'Gus Lind'], wants: null, urgentTicked: false };
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

/**
 * An admin app in the shape of Django's admin, unlike the demo apps: a customer list with a
 * search, whose edit page keeps the search encoded inside a query value
 * (`?_changelist_filters=q%3DJohn%2BFletcher`) so that saving returns to it; and a "+" beside the
 * company select that opens a small add window (`window.open`), where the new company is saved
 * and the window fills the select in the page that opened it and closes itself.
 *
 * Each page carries an oracle (window.__plan, reading only the live DOM) that does what a person
 * would in that window; the test's agent asks the window the run is in (Observation.url).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { formFields, listenLocal, readBody, redirect, requestTarget, sendHtml } from '../../src/demo/app/http.js';

export type Customer = { id: number; name: string; phone: string; companyId: number | null };
export type Company = { id: number; name: string };

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const STYLE = `<style>body { font: 13px Verdana, Arial, sans-serif; margin: 0; } header { background: #417690; color: #fff; padding: 10px 16px; font-size: 16px; } main { padding: 14px 16px; } table { border-collapse: collapse; margin-top: 10px; } td, th { border-bottom: 1px solid #ddd; padding: 5px 10px; text-align: left; } label { display: inline-block; width: 110px; } form div { margin: 8px 0; } .ok { background: #dfd; padding: 6px; } input, select { font: 13px Verdana, Arial, sans-serif; }</style>`;

function layout(title: string, body: string, oracle: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escape(title)}</title>${STYLE}</head><body><header>Site administration</header><main><h1 style="font-size:18px">${escape(title)}</h1>${body}</main><script>${oracle}</script></body></html>`;
}

const HELPERS = `
  function centre(el) { var r = el.getBoundingClientRect(); return { x: Math.round(r.x + r.width / 2), y: Math.round(r.y + r.height / 2) }; }
  function click(el, intent, more) { var c = centre(el); return { actions: [{ type: 'click', x: c.x, y: c.y }].concat(more || []), intent: intent }; }
  function fill(el, text, intent) { return click(el, intent, (el.value ? [{ type: 'keypress', keys: ['CTRL', 'A'] }] : []).concat([{ type: 'type', text: text }])); }
`;

const LIST_ORACLE = `${HELPERS}
  window.__plan = function (params) {
    if (document.querySelector('.ok')) return { done: true, answer: 'Saved' };
    var q = document.getElementById('q');
    if (new URLSearchParams(location.search).get('q') !== params.customer) {
      if (q.value !== params.customer) return fill(q, params.customer, 'Search for the customer');
      return click(document.getElementById('search'), 'Search');
    }
    var links = document.querySelectorAll('td a');
    for (var i = 0; i < links.length; i++) if (links[i].textContent === params.customer) return click(links[i], 'Open the customer');
    return { done: true, answer: 'No such customer' };
  };`;

const CHANGE_ORACLE = `${HELPERS}
  window.__plan = function (params) {
    var phone = document.getElementById('id_phone');
    if (phone.value !== params.phone) return fill(phone, params.phone, 'Set the phone');
    var company = document.getElementById('id_company');
    var chosen = company.options[company.selectedIndex];
    if (!chosen || chosen.text !== params.company) return click(document.getElementById('add_id_company'), 'Add the new company');
    return click(document.getElementById('save'), 'Save the customer');
  };
  window.dismissAddCompany = function (id, name) {
    var select = document.getElementById('id_company');
    var option = document.createElement('option');
    option.value = id; option.text = name; select.appendChild(option); select.value = String(id);
  };`;

const ADD_ORACLE = `${HELPERS}
  window.__plan = function (params) {
    var name = document.getElementById('id_name');
    if (name.value !== params.company) return fill(name, params.company, 'Name the company');
    return click(document.getElementById('save'), 'Save the company');
  };`;

export type AdminApp = {
  url(path: string): string;
  readonly customers: Customer[];
  readonly companies: Company[];
  /** Every write, in order: what a test checks happened exactly once, with the right values. */
  readonly writes: { kind: 'customer' | 'company'; id: number; fields: Record<string, string> }[];
  close(): Promise<void>;
};

export async function startAdminApp(): Promise<AdminApp> {
  const customers: Customer[] = ['John Fletcher', 'Ann Rowland', 'Maria Costa', 'Lee Park', 'Omar Haddad', 'Ida Berg', 'Tom Weiss'].map((name, index) => ({ id: index + 3, name, phone: `555-01${index}0`, companyId: null }));
  const companies: Company[] = [{ id: 1, name: 'Initech' }];
  const writes: AdminApp['writes'] = [];

  function listPage(q: string, saved: string | undefined): string {
    const rows = customers.filter((customer) => q === '' || customer.name.toLowerCase().includes(q.toLowerCase()));
    const filters = encodeURIComponent(`q=${q}`);
    const table = `<table><tr><th>Name</th><th>Phone</th><th>Company</th></tr>${rows.map((customer) => `<tr><td><a href="/customers/${customer.id}/change/?_changelist_filters=${filters}">${escape(customer.name)}</a></td><td>${escape(customer.phone)}</td><td>${escape(companies.find((company) => company.id === customer.companyId)?.name ?? '-')}</td></tr>`).join('')}</table>`;
    const message = saved ? `<p class="ok">The customer “${escape(saved)}” was changed successfully.</p>` : '';
    return layout('Select customer to change', `${message}<form method="get" action="/customers/"><input id="q" name="q" value="${escape(q)}" size="30"> <button id="search" type="submit">Search</button></form>${table}`, LIST_ORACLE);
  }

  function changePage(customer: Customer, search: string): string {
    const options = ['<option value="">---------</option>', ...companies.map((company) => `<option value="${company.id}"${company.id === customer.companyId ? ' selected' : ''}>${escape(company.name)}</option>`)].join('');
    return layout(
      'Change customer',
      `<form method="post" action="/customers/${customer.id}/change/${search}">
        <div><label for="id_name">Name:</label><input id="id_name" name="name" value="${escape(customer.name)}" size="30"></div>
        <div><label for="id_phone">Phone:</label><input id="id_phone" name="phone" value="${escape(customer.phone)}" size="20"></div>
        <div><label for="id_company">Company:</label><select id="id_company" name="company">${options}</select>
          <a id="add_id_company" href="/companies/add/?_popup=1" title="Add another company" onclick="window.open(this.href, 'id_company', 'width=520,height=360'); return false;" style="font-weight:bold;text-decoration:none;margin-left:6px">+</a></div>
        <div><button id="save" type="submit">Save</button></div>
      </form>`,
      CHANGE_ORACLE,
    );
  }

  function addPage(): string {
    return layout('Add company', `<form method="post" action="/companies/add/?_popup=1"><div><label for="id_name">Name:</label><input id="id_name" name="name" size="30"></div><div><button id="save" type="submit">Save</button></div></form>`, ADD_ORACLE);
  }

  /** What Django answers in the add window: fill the opener's select, then close. */
  function addedPage(company: Company): string {
    return `<!doctype html><html><head><title>Popup closing…</title></head><body><script>opener.dismissAddCompany(${company.id}, ${JSON.stringify(company.name)}); window.close();</script></body></html>`;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { method, path, url } = requestTarget(req);
    if (path === '/customers/') return sendHtml(res, 200, listPage(url.searchParams.get('q') ?? '', url.searchParams.get('saved') ?? undefined));
    const change = /^\/customers\/(\d+)\/change\/$/.exec(path);
    if (change) {
      const customer = customers.find((candidate) => candidate.id === Number(change[1]));
      if (!customer) return sendHtml(res, 404, '<p>Not found</p>');
      const filters = url.searchParams.get('_changelist_filters') ?? '';
      if (method === 'POST') {
        const fields = formFields(await readBody(req, 64 * 1024));
        writes.push({ kind: 'customer', id: customer.id, fields });
        customer.name = fields.name ?? customer.name;
        customer.phone = fields.phone ?? customer.phone;
        customer.companyId = fields.company ? Number(fields.company) : null;
        const back = new URLSearchParams(filters);
        back.set('saved', customer.name);
        return redirect(res, 303, `/customers/?${back.toString()}`);
      }
      return sendHtml(res, 200, changePage(customer, url.search));
    }
    if (path === '/companies/add/') {
      if (method === 'POST') {
        const fields = formFields(await readBody(req, 64 * 1024));
        const company = { id: companies.length + 1, name: fields.name ?? '' };
        companies.push(company);
        writes.push({ kind: 'company', id: company.id, fields });
        return sendHtml(res, 200, addedPage(company));
      }
      return sendHtml(res, 200, addPage());
    }
    return redirect(res, 302, '/customers/');
  }
  const server = await listenLocal(handle);
  return { url: (path) => `${server.origin}${path}`, customers, companies, writes, close: server.close };
}

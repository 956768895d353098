/**
 * Pages built to make a cached step act on the wrong element, from a review of the identity rules:
 * rows told apart only by punctuation, a row number that equals a parameter's value, counter ids
 * that shift, list items whose words follow the button, row checkboxes at half pixels, a target
 * that was the only one of its kind, a thousand clickable divs, a countdown, grouped numbers.
 * Each page has an in-page oracle (window.__plan), as in corpusApp.ts; the server keeps what was done.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomForLoad } from '../../bench/apps/catalog/random.js';
import { formFields, listenLocal, readBody, redirect, requestTarget, sendHtml } from '../../src/demo/app/http.js';

export type TrickyApp = {
  url(path: string): string;
  /** What the next load of each page shows: set between runs. */
  set(state: Partial<TrickyState>): void;
  readonly done: { page: string; fields: Record<string, string> }[];
  close(): Promise<void>;
};

export type TrickyState = {
  /** /users: the e-mail in the first row. */
  firstUser: string;
  /** /survey: a conditional question shown above the others (it shifts every counter id). */
  extraQuestion: boolean;
  /** /issues: the order of the issue titles. */
  issues: string[];
  /** /approvals: the pending requests, top first. */
  pending: string[];
  /** /pick: the order of the names in the half-pixel rows. */
  names: string[];
  /** /posts: the posts, top first, with their comment counts (a count two posts share on another load). */
  posts: { title: string; comments: number }[];
  /**
   * /note: what focusing the Note field does: nothing; opens a notice right over it (the field keeps
   * the focus, the notice covers its middle); or puts an identical new field in its place, focused;
   * hands the focus to Reference, at once or in a task; fills in a draft by the field's property (no
   * change any observer of the DOM sees); or, by a stylesheet alone, gives the focused field's label
   * the words "Edit" before it (a new accessible name, and no change in the DOM either).
   */
  noteFocus: 'none' | 'cover' | 'replace' | 'elsewhere' | 'elsewhere-later' | 'prefill' | 'css-name';
  /**
   * /note: a thin bar above the form that pushes the fields down by 6 px, less than half a field's
   * height (the first read still finds the field at its recorded point, off its recorded box); or
   * the bar and a grey veil over the Note field where it now stands, which lets clicks through
   * (pointer-events: none: the hit test and the accessibility tree see the field) and changes only
   * how it looks.
   */
  noteBanner: 'none' | 'shown' | 'veiled';
  /**
   * /consent: what ticking "I agree" does after the click, in a task it queues (setTimeout 0):
   * nothing; put a "Delete my account" button where Continue stood, pushing Continue down; or tick
   * "Send me a copy" by its property (no attribute changes: no change any observer of the DOM sees;
   * and the box is drawn alike ticked or not, as a styled box whose stylesheet draws its tick elsewhere).
   */
  consentLater: 'none' | 'delete-in-place' | 'tick-copy';
};

/** The in-page oracle's helpers (window.__o), shared with the other apps of this kind. */
export const ORACLE = `<script>
window.__o = {
  at: function (el, intent) { var r = el.getBoundingClientRect(); return { actions: [{ type: 'click', x: Math.round(r.x + r.width / 2), y: Math.round(r.y + r.height / 2) }], intent: intent }; },
  wait: function (ms, intent) { return { actions: [{ type: 'wait', ms: ms }], intent: intent }; },
  done: function () { return { done: true, answer: 'Done' }; }
};
</script>`;

export function page(title: string, body: string, plan: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>
<style>body { font: 14px Arial, sans-serif; margin: 16px; } td, th { border: 1px solid #aaa; padding: 3px 8px; } table { border-collapse: collapse; }</style></head>
<body><h1>${title}</h1>${body}${ORACLE}<script>window.__plan = function (params) { var o = window.__o; ${plan} };</script></body></html>`;
}

export const post = (path: string, fields: Record<string, string>, label: string, attrs = '') =>
  `<form method="post" action="${path}" style="display:inline">${Object.entries(fields).map(([k, v]) => `<input type="hidden" name="${k}" value="${v}">`).join('')}<button type="submit" ${attrs}>${label}</button></form>`;

function usersPage(state: TrickyState): string {
  const users = [state.firstUser, 'mary.jones@acme.com', 'li.wei@acme.com'];
  const rows = users.map((user) => `<tr><td>${user}</td><td>${post('/users', { user }, 'Delete')}</td></tr>`).join('');
  return page('Users', `<table><tr><th>E-mail</th><th></th></tr>${rows}</table>`, `return o.at(Array.prototype.find.call(document.querySelectorAll('tr'), function (tr) { return tr.cells[0].textContent === 'john.smith@acme.com'; }).querySelector('button'), 'Delete john.smith');`);
}

function documentsPage(): string {
  const rows = [1, 2, 3, 4, 5].map((n) => `<tr><td>${n}</td><td>Invoice batch ${String.fromCharCode(64 + n)}</td><td><button type="button" onclick="document.getElementById('doc').value='${n}'">Select</button></td></tr>`).join('');
  return page(
    'Documents',
    `<table><tr><th>#</th><th>Name</th><th></th></tr>${rows}</table><form method="post" action="/documents"><input type="hidden" name="doc" id="doc"><label>Copies <input name="copies" id="copies"></label> <button type="submit">Print</button></form>`,
    `if (!document.getElementById('doc').value) return o.at(document.querySelectorAll('tr')[2].querySelector('button'), 'Select document 2');
     var copies = document.getElementById('copies');
     if (copies.value !== params.copies) { var a = o.at(copies, 'Copies'); a.actions.push({ type: 'type', text: params.copies }); return a; }
     return o.at(document.querySelector('button[type=submit]'), 'Print');`,
  );
}

function surveyPage(state: TrickyState): string {
  const questions = [...(state.extraQuestion ? ['Have you travelled abroad this year?'] : []), 'Do you smoke?', 'Do you drink alcohol?'];
  let counter = 0;
  const groups = questions
    .map((question, q) => {
      const options = ['Yes', 'No'].map((answer) => `<label><input type="radio" id="mat-radio-${++counter}-input" name="q${q}" value="${question}=${answer.toLowerCase()}"> ${answer}</label>`).join(' ');
      return `<div class="question"><p>${question}</p>${options}</div>`;
    })
    .join('');
  return page(
    'Health survey',
    `<form method="post" action="/survey">${groups}<button type="submit">Send</button></form>`,
    `var want = { 'Do you smoke?': 'No', 'Do you drink alcohol?': 'No', 'Have you travelled abroad this year?': 'No' };
     var blocks = document.querySelectorAll('.question');
     for (var i = 0; i < blocks.length; i++) {
       var q = blocks[i].querySelector('p').textContent, radios = blocks[i].querySelectorAll('input');
       var target = Array.prototype.find.call(radios, function (r) { return r.parentElement.textContent.trim() === want[q]; });
       if (!target.checked) return o.at(target, 'Answer ' + q);
     }
     return o.at(document.querySelector('button'), 'Send');`,
  );
}

function issuesPage(state: TrickyState): string {
  const items = state.issues.map((title) => `<li>${post('/issues', { issue: title }, 'Assign to me')} <span>${title}</span></li>`).join('');
  return page('Open issues', `<ul>${items}</ul>`, `return o.at(Array.prototype.find.call(document.querySelectorAll('li'), function (li) { return li.querySelector('span').textContent === params.issue; }).querySelector('button'), 'Assign ' + params.issue);`);
}

function approvalsPage(state: TrickyState): string {
  const rows = state.pending.map((who) => `<tr><td>${who}</td><td>${post('/approvals', { who }, 'Approve')}</td></tr>`).join('');
  return page('Pending requests', `<table>${rows}</table>`, `return o.at(document.querySelector('button'), 'Approve the pending request');`);
}

function pickPage(state: TrickyState): string {
  // 15px text at 1.5 line height: rows 22.5 px high, so every other checkbox sits on a half pixel.
  const rows = state.names.map((name) => `<tr style="line-height: 1.5; font-size: 15px"><td style="padding: 0 4px"><input type="checkbox" name="pick" value="${name}"></td><td style="padding: 0 4px">${name}</td></tr>`).join('');
  return page(
    'Remove members',
    `<form method="post" action="/pick"><table>${rows}</table><button type="submit">Remove selected</button></form>`,
    `var box = Array.prototype.find.call(document.querySelectorAll('input[type=checkbox]'), function (b) { return b.value === 'Cy Diaz'; });
     if (!box.checked) return o.at(box, 'Tick Cy Diaz');
     return o.at(document.querySelector('button'), 'Remove selected');`,
  );
}

function postsPage(state: TrickyState): string {
  const articles = state.posts
    .map((post) => `<article style="border-bottom:1px solid #ccc;padding:6px 0"><h3 style="margin:0">${post.title}</h3><p style="margin:2px 0;color:#666">Posted by a member · ${post.comments} comments</p>${post.title === '' ? '' : post_(post.title, 'Like')} ${post_(post.title, 'Share')}</article>`)
    .join('');
  return page('Community', articles, `return o.at(Array.prototype.find.call(document.querySelectorAll('article'), function (a) { return a.querySelector('h3').textContent === params.title; }).querySelector('button'), 'Like ' + params.title);`);
}
const post_ = (title: string, verb: string) => post(`/posts`, { title, verb }, verb);

function addressesPage(): string {
  const form = (kind: string) => `<h4>${kind} address</h4><form method="post" action="/addresses"><input type="hidden" name="kind" value="${kind}"><div>Street <input name="street"></div><div>City <input name="city"></div><button type="submit">Save</button></form>`;
  return page(
    'Addresses',
    `${form('Billing')}${form('Shipping')}`,
    `var forms = document.querySelectorAll('form'), shipping = forms[1];
     var city = shipping.querySelector('[name=city]');
     if (city.value !== params.city) { var a = o.at(city, 'Shipping city'); a.actions.push({ type: 'type', text: params.city }); return a; }
     return o.at(shipping.querySelector('button'), 'Save the shipping address');`,
  );
}

const ENTRY_FIELDS = ['name', 'email', 'phone', 'city', 'zip'];

/**
 * A legacy entry form in a page-wide layout table: its labels are images with no alt text, its
 * rows shuffled on each load, its field names generated anew (ctl00$Main$TextBox4711...): nothing
 * a browser can read tells the fields apart. The server decodes the post by a hidden map.
 */
function entryPage(load: number): string {
  const order = randomForLoad(29, load).shuffle(ENTRY_FIELDS);
  const map: Record<string, string> = {};
  const rows = order
    .map((field, i) => {
      const name = `ctl00$Main$TextBox${4000 + load * 10 + i}`;
      map[name] = field;
      const label = `data:image/svg+xml;utf8,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" width="80" height="20"><text x="0" y="15" font-size="13">${field}</text></svg>`)}`;
      return `<tr><td><img src="${label}"></td><td><input type="text" name="${name}" data-hint="${field}"></td></tr>`;
    })
    .join('');
  return page(
    'Customer entry',
    `<table width="100%" border="0" cellspacing="0"><tr><td colspan="2" bgcolor="#336" style="color:#fff;padding:8px">ACME Customer System v2.3</td></tr>
<tr><td width="160" valign="top" bgcolor="#ccd"><a href="#">Main</a><br><a href="#">Customers</a><br><a href="#">Reports</a></td><td valign="top" style="padding:12px">
<form method="post" action="/entry"><input type="hidden" name="__map" value='${JSON.stringify(map)}'><table border="0">${rows}</table><input type="submit" value="Save record"></form></td></tr></table>`,
    `var fields = ${JSON.stringify(ENTRY_FIELDS)};
     for (var i = 0; i < fields.length; i++) {
       var el = document.querySelector('[data-hint="' + fields[i] + '"]');
       if (el.value !== params[fields[i]]) { var a = o.at(el, 'Fill ' + fields[i]); a.actions.push({ type: 'type', text: params[fields[i]] }); return a; }
     }
     return o.at(document.querySelector('input[type=submit]'), 'Save record');`,
  );
}

function divsPage(): string {
  // A React-like page: hundreds of plain divs, and the control the task uses is one of them.
  const filler = Array.from({ length: 400 }, (_, i) => `<div class="cell" style="display:inline-block;width:24px;height:12px;margin:1px;background:#eef">${i % 10}</div>`).join('');
  return page(
    'Board',
    `<div id="grid">${filler}</div><div id="open" class="btn" style="display:inline-block;padding:4px 12px;background:#36c;color:#fff;cursor:pointer" onclick="document.getElementById('f').submit()">Open</div><form id="f" method="post" action="/divs"><input type="hidden" name="opened" value="yes"></form>`,
    `return o.at(document.getElementById('open'), 'Open');`,
  );
}

function countdownPage(): string {
  return page(
    'Offer',
    `<p>Offer ends in <span id="timer"></span></p><form method="post" action="/countdown"><label>Code <input name="code" id="code"></label> <button type="submit">Apply</button></form>
<script>var left = 3600 * 5; function show() { left--; document.getElementById('timer').textContent = Math.floor(left / 3600) + ' h ' + Math.floor(left % 3600 / 60) + ' min ' + (left % 60) + ' s'; } show(); setInterval(show, 250);</script>`,
    `var code = document.getElementById('code');
     if (code.value !== params.code) { var a = o.at(code, 'Code'); a.actions.push({ type: 'type', text: params.code }); return a; }
     return o.at(document.querySelector('button'), 'Apply');`,
  );
}

function notePage(state: TrickyState): string {
  const onFocus =
    state.noteFocus === 'cover'
      ? `var r = note.getBoundingClientRect(), d = document.createElement('div'); d.id = 'notice'; d.textContent = 'Your session ends in 1 minute';
         d.style.cssText = 'position:absolute;background:#fffbcc;border:1px solid #c90;font-size:12px;padding:2px;left:' + (r.x + 40) + 'px;top:' + (r.y + window.scrollY - 4) + 'px;width:' + (r.width - 80) + 'px;height:' + (r.height + 8) + 'px';
         document.body.appendChild(d);`
      : state.noteFocus === 'replace'
        ? `var copy = note.cloneNode(true); note.replaceWith(copy); copy.focus();`
        : state.noteFocus === 'elsewhere'
          ? `document.getElementById('ref').focus();`
          : state.noteFocus === 'elsewhere-later'
            ? `setTimeout(function () { document.getElementById('ref').focus(); }, 0);`
            : state.noteFocus === 'prefill'
              ? `note.value = 'draft';`
              : '';
  const banner = state.noteBanner === 'none' ? '' : '<div style="height:6px;background:#def"></div>';
  const veil =
    state.noteBanner === 'veiled'
      ? `<script>(function () { var r = document.getElementById('note').getBoundingClientRect(), v = document.createElement('div');
         v.style.cssText = 'position:absolute;pointer-events:none;background:rgba(90,90,90,0.55);left:' + (r.x - 4) + 'px;top:' + (r.y + window.scrollY - 4) + 'px;width:' + (r.width + 8) + 'px;height:' + (r.height + 8) + 'px';
         document.body.appendChild(v); })();</script>`
      : '';
  const style = state.noteFocus === 'css-name' ? `<style>label:focus-within::before { content: "Edit "; position: absolute; left: -9999px; }</style>` : '';
  return page(
    'Note',
    `${style}${banner}<form method="post" action="/note"><label>Note <input name="note" id="note" style="width:300px"></label> <label>Reference <input name="ref" id="ref" style="width:100px"></label> <button type="submit">Save</button></form>
<script>var once = false; document.getElementById('note').addEventListener('focus', function () { var note = this; if (once) return; once = true; ${onFocus} });</script>${veil}`,
    `var note = document.querySelector('input[name=note]');
     if (note.value !== params.note) { var a = o.at(note, 'Note'); a.actions.push({ type: 'type', text: params.note }); return a; }
     return o.at(document.querySelector('button'), 'Save');`,
  );
}

function consentPage(state: TrickyState): string {
  const later =
    state.consentLater === 'delete-in-place'
      ? `setTimeout(function () { var row = document.createElement('div'); row.innerHTML = '<button type="submit" name="choice" value="delete">Delete my account</button>'; document.getElementById('actions').prepend(row); }, 0);`
      : state.consentLater === 'tick-copy'
        ? `setTimeout(function () { document.getElementById('copy').checked = true; }, 0);`
        : '';
  return page(
    'Consent',
    `<form method="post" action="/consent"><p><label><input type="checkbox" id="agree" name="agree" value="yes"> I agree</label></p>
<p><label><input type="checkbox" id="copy" name="copy" value="yes" style="appearance:none;width:14px;height:14px;border:1px solid #555;margin:0 4px 0 0"> Send me a copy</label></p>
<div id="actions"><div><button type="submit" name="choice" value="continue">Continue</button></div></div></form>
<script>document.getElementById('agree').addEventListener('click', function () { ${later} });</script>`,
    `var agree = document.getElementById('agree');
     if (!agree.checked) return o.at(agree, 'Agree');
     var copy = document.getElementById('copy');
     if (!copy.checked) return o.at(copy, 'Send me a copy');
     return o.at(Array.prototype.find.call(document.querySelectorAll('button'), function (b) { return b.textContent === 'Continue'; }), 'Continue');`,
  );
}

function importPage(): string {
  return page(
    'Import',
    `<button type="button" id="start">Import</button> <span id="status">Idle</span>
<form method="post" action="/import"><input type="hidden" name="seen" id="seen"><button type="submit" id="done">Done</button></form>
<script>document.getElementById('start').onclick = function () { var n = 0; var t = setInterval(function () { n += 100; document.getElementById('status').textContent = 'Imported ' + n.toLocaleString('en-US') + ' of 5,000 rows'; document.getElementById('seen').value = String(n); if (n >= 5000) clearInterval(t); }, 40); };</script>`,
    `var s = document.getElementById('status').textContent;
     if (s === 'Idle') return o.at(document.getElementById('start'), 'Import');
     if (s !== 'Imported 5,000 of 5,000 rows') return o.wait(200, 'Wait for the import to finish');
     return o.at(document.getElementById('done'), 'Done');`,
  );
}

export async function startTrickyApp(): Promise<TrickyApp> {
  const state: TrickyState = {
    firstUser: 'john.smith@acme.com',
    extraQuestion: false,
    issues: ['Crash on export', 'Typo in footer', 'Login fails on Safari'],
    pending: ['Alice Moreau'],
    names: ['Al Brown', 'Bo Chen', 'Cy Diaz'],
    posts: [
      { title: 'The best bread recipe', comments: 4 },
      { title: 'A week in Lisbon', comments: 23 },
      { title: 'Notes on remote work', comments: 9 },
    ],
    noteFocus: 'none',
    noteBanner: 'none',
    consentLater: 'none',
  };
  const done: TrickyApp['done'] = [];
  let loads = 0;
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { method, path } = requestTarget(req);
    if (method === 'POST') {
      const fields = formFields(await readBody(req, 64 * 1024));
      // The entry form's generated names mean nothing by themselves: its map says which field is which.
      const decoded = fields.__map ? Object.fromEntries(Object.entries(JSON.parse(fields.__map) as Record<string, string>).map(([name, field]) => [field, fields[name] ?? ''])) : fields;
      done.push({ page: path.slice(1), fields: decoded });
      return redirect(res, 303, '/done');
    }
    const pages: Record<string, () => string> = {
      '/users': () => usersPage(state),
      '/documents': documentsPage,
      '/survey': () => surveyPage(state),
      '/issues': () => issuesPage(state),
      '/approvals': () => approvalsPage(state),
      '/pick': () => pickPage(state),
      '/divs': divsPage,
      '/posts': () => postsPage(state),
      '/addresses': addressesPage,
      '/entry': () => entryPage(loads++),
      '/countdown': countdownPage,
      '/import': importPage,
      '/note': () => notePage(state),
      '/consent': () => consentPage(state),
      '/done': () => page('Done', '<p>Done.</p>', 'return o.done();'),
    };
    const render = pages[path];
    return sendHtml(res, render ? 200 : 404, render ? render() : page('Not found', '', 'return o.done();'));
  }
  const server = await listenLocal(handle);
  return {
    url: (path) => `${server.origin}${path}`,
    set: (changed) => Object.assign(state, changed),
    done,
    close: server.close,
  };
}

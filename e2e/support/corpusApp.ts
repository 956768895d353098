/**
 * A corpus of the pages rote meets on the web and did not write: fields known only by a row
 * header, a placeholder or an id; look-alike buttons; bare icons; layouts that jitter; waits for a
 * value; late labels; native prompts. Each page is randomised per load (seeded, so failures
 * reproduce) and carries an "oracle": in-page JavaScript that decides what a model looking at the
 * page would do next. The oracle reads only the live DOM (hints in data-hint attributes, which
 * rote never reads), so a scripted agent built on it is an ordinary Agent.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomForLoad, type Random } from '../../bench/apps/catalog/random.js';
import { formFields, listenLocal, readBody, redirect, requestTarget, sendHtml } from '../../src/demo/app/http.js';

export type Submission = { page: string; fields: Record<string, string> };

/** What changes from the recording: set between runs, applied from the next load (the URLs stay the same). */
export type CorpusConditions = {
  /** The "Genre" row header reads this instead. */
  renamedHeader?: string;
  /** The toolbar's icons come in another order on each load. */
  shuffleIcons?: boolean;
  /** The progress moves in uneven jumps of 3 to 9 %, or stops at 40 %. */
  progress?: 'steady' | 'jumps' | 'stall';
  /**
   * Each 1 % of the progress takes 150 to 250 ms instead of 40 to 60 ms: for a test that bounds
   * where a run stops it, so the bound measures the run's reaction in ticks a busy machine can keep.
   */
  slowProgress?: boolean;
  /** A clock ticking four times a second above the progress. */
  clock?: boolean;
  /** The Stop button is drawn in another style (a restyled page): the same control, another look. */
  restyledStop?: boolean;
};

export type CorpusApp = {
  origin: string;
  /** Changes the pages from the next load on; {} restores them. */
  set(conditions: CorpusConditions): void;
  url(path: string): string;
  readonly submissions: Submission[];
  /** Clicks on a destructive control (a delete icon), as the server saw them. */
  readonly destructive: number;
  close(): Promise<void>;
};

/** The page's randomness for this load: the catalogue app's seeded generator, one per load. */
function loads(seed: number): () => Random {
  let load = 0;
  return () => randomForLoad(seed, load++);
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The oracle's toolkit: box(el), click(el, intent), fill(el, text, intent) (click, select all,
 * type), wait(ms, intent), done(answer), visible(el). Each page defines window.__plan(params).
 */
const ORACLE = `<script>
(function () {
  function box(el) { var r = el.getBoundingClientRect(); return { x: r.x, y: r.y, width: r.width, height: r.height }; }
  function centre(el) { var b = box(el); return { x: Math.round(b.x + b.width / 2), y: Math.round(b.y + b.height / 2) }; }
  window.__oracle = {
    visible: function (el) { if (!el) return false; var r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden'; },
    click: function (el, intent) { var c = centre(el); return { actions: [{ type: 'click', x: c.x, y: c.y }], intent: intent }; },
    fill: function (el, text, intent) {
      var c = centre(el);
      var actions = [{ type: 'click', x: c.x, y: c.y }];
      if (el.value) actions.push({ type: 'keypress', keys: ['CTRL', 'A'] });
      actions.push({ type: 'type', text: text });
      return { actions: actions, intent: intent };
    },
    wait: function (ms, intent) { return { actions: [{ type: 'wait', ms: ms }], intent: intent }; },
    done: function (answer) { return { done: true, answer: answer }; }
  };
})();
</script>`;

function layout(title: string, body: string, plan: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escape(title)}</title>
<style>
body { font: 14px Verdana, Arial, sans-serif; margin: 16px; background: #f4f4ef; }
h1 { font-size: 18px; } table { border-collapse: collapse; margin: 8px 0; } th, td { border: 1px solid #999; padding: 4px 8px; text-align: left; }
th { background: #e4e4dc; } input, textarea { font: 14px Verdana, Arial, sans-serif; width: 220px; } button { font: 13px Verdana, Arial, sans-serif; }
.icon { width: 34px; height: 30px; padding: 2px; } .bar { width: 300px; height: 14px; border: 1px solid #555; background: #fff; }
.fill { height: 100%; background: #3a6ea5; width: 0; }
</style></head><body><h1>${escape(title)}</h1>${body}${ORACLE}<script>window.__plan = function (params) { var o = window.__oracle; ${plan} };</script></body></html>`;
}

/** Fields filled in order by their hint, then a click on the element `submit` selects. */
const FILL_BY_HINT = (submit: string, names: string[]) => `
  var order = ${JSON.stringify(names)};
  for (var i = 0; i < order.length; i++) {
    var el = document.querySelector('[data-hint="' + order[i] + '"]');
    if (!el || !o.visible(el)) return o.wait(300, 'Wait for the form');
    if (el.value !== params[order[i]]) return o.fill(el, params[order[i]], 'Fill ' + order[i]);
  }
  return o.click(document.querySelector(${JSON.stringify(submit)}), 'Save');`;

const SAVED_PAGE = (fields: Record<string, string>) =>
  layout('Saved', `<p id="saved">Saved.</p><table>${Object.entries(fields).map(([k, v]) => `<tr><th>${escape(k)}</th><td>${escape(v)}</td></tr>`).join('')}</table>`, `return o.done('Saved');`);

/**
 * Rows of unnamed fields known only by their row header, shuffled on each load. With `headers`
 * false nothing at all tells them apart (no header, no name: the page posts them by script).
 */
function rowsPage(random: Random, options: { headers: boolean; renamed: string | undefined }): string {
  const fields = ['title', 'author', 'genre'];
  const labels: Record<string, string> = { title: 'Title', author: 'Author', genre: options.renamed ?? 'Genre' };
  const rows = random.shuffle(fields)
    .map((field) => (options.headers ? `<tr><th>${labels[field]}</th><td><input type="text" name="v_${field}" data-hint="${field}"></td></tr>` : `<tr><td><input type="text" data-hint="${field}"></td></tr>`))
    .join('');
  const post = options.headers
    ? ''
    : `<script>document.getElementById('f').addEventListener('submit', function () { ${JSON.stringify(fields)}.forEach(function (field) { var hidden = document.createElement('input'); hidden.type = 'hidden'; hidden.name = 'v_' + field; hidden.value = document.querySelector('[data-hint="' + field + '"]').value; document.getElementById('f').appendChild(hidden); }); });</script>`;
  return layout('Book details', `<form id="f" method="post" action="/rows"><table>${rows}</table><button type="submit" id="save">Save</button></form>${post}`, FILL_BY_HINT('#save', fields));
}

/** Fields known only by a placeholder and only by an id; the id fields jitter 0-20 px per load. */
function knownPage(random: Random): string {
  const jitter = () => random.int(0, 20);
  return layout(
    'Publication',
    `<form method="post" action="/known">
<div><input type="text" name="publisher" placeholder="Publisher" data-hint="publisher"></div>
<div style="margin-top: ${jitter()}px"><input type="text" id="isbn" name="isbn" data-hint="isbn"></div>
<div style="margin-top: ${jitter()}px; margin-left: ${jitter()}px"><input type="text" id="ref" name="ref" data-hint="ref"></div>
<button type="submit" id="save" style="margin-top: 8px">Save</button></form>`,
    FILL_BY_HINT('#save', ['publisher', 'isbn', 'ref']),
  );
}

const PEOPLE = [
  { name: 'Ana Silva', email: 'ana@example.test' },
  { name: 'Rui Costa', email: 'rui@example.test' },
  { name: 'Eva Lima', email: 'eva@example.test' },
  { name: 'Joao Reis', email: 'joao@example.test' },
];

/** A table of people, each row with an identical Edit button; rows shuffled per load. */
function peoplePage(random: Random): string {
  const rows = random.shuffle(PEOPLE)
    .map((person) => `<tr><td>${person.name}</td><td>${person.email}</td><td><form method="post" action="/people"><input type="hidden" name="person" value="${person.name}"><button type="submit" data-hint="${person.name}">Edit</button></form></td></tr>`)
    .join('');
  return layout('People', `<table><tr><th>Name</th><th>Email</th><th></th></tr>${rows}</table>`, `return o.click(document.querySelector('[data-hint="' + params.person + '"]'), 'Edit ' + params.person);`);
}

const ICONS: Record<string, string> = {
  save: '<svg width="22" height="22" viewBox="0 0 22 22"><rect x="2" y="2" width="18" height="18" fill="#2a5caa"/><rect x="6" y="3" width="10" height="6" fill="#fff"/></svg>',
  print: '<svg width="22" height="22" viewBox="0 0 22 22"><rect x="5" y="2" width="12" height="7" fill="#777"/><rect x="2" y="9" width="18" height="8" fill="#333"/></svg>',
  trash: '<svg width="22" height="22" viewBox="0 0 22 22"><rect x="5" y="6" width="12" height="14" fill="#b22"/><rect x="3" y="3" width="16" height="3" fill="#b22"/></svg>',
};

/** A toolbar of bare icon buttons (no text, no label, no title); `shuffle` reorders them per load. */
function toolbarPage(random: Random, shuffle: boolean): string {
  const order = shuffle ? random.shuffle(Object.keys(ICONS)) : Object.keys(ICONS);
  const buttons = order.map((icon) => `<button type="button" class="icon" data-hint="${icon}" onclick="act('${icon}')">${ICONS[icon]}</button>`).join(' ');
  return layout(
    'Draft',
    `<div>${buttons}</div><p>Draft 7: quarterly figures.</p>
<form id="f" method="post" action="/toolbar"><input type="hidden" name="action" id="action"></form>
<script>function act(icon) { if (icon === 'print') return; if (icon === 'trash') { fetch('/destructive', { method: 'POST' }); return; } document.getElementById('action').value = icon; document.getElementById('f').submit(); }</script>`,
    `return o.click(document.querySelector('[data-hint="save"]'), 'Click the save icon');`,
  );
}

/** Start a process, wait until its indicator shows at least `params.target` %, stop it. The speed differs per load. */
function progressPage(random: Random, options: { jumps: boolean; stall: boolean; clock: boolean; restyledStop: boolean; slow: boolean }): string {
  const tickMs = options.slow ? random.int(150, 250) : random.int(40, 60);
  return layout(
    'Indexing',
    `${options.clock ? '<div>Server time: <span id="clock"></span></div><script>setInterval(function () { document.getElementById("clock").textContent = new Date().toTimeString().slice(0, 8); }, 250);</script>' : ''}
<button type="button" id="start">Start</button> <button type="button" id="stop"${options.restyledStop ? ' style="background: #7a1f1f; color: #ffffff; border: 2px solid #000000; padding: 4px 14px;"' : ''}>Stop</button>
<div class="bar"><div class="fill" id="fill"></div></div>
<div id="progress" role="progressbar" aria-valuenow="0" aria-valuemin="0" aria-valuemax="100">0%</div>
<form method="post" action="/progress"><input type="hidden" name="stoppedAt" id="stoppedAt"><button type="submit" id="save">Save</button></form>
<script>
(function () {
  var value = 0, timer = null, ticks = 0, jump = 1;
  function show() { var p = document.getElementById('progress'); p.textContent = value + '%'; p.setAttribute('aria-valuenow', String(value)); document.getElementById('fill').style.width = value + '%'; }
  document.getElementById('start').onclick = function () {
    if (timer) return;
    timer = setInterval(function () {
      if (${options.stall} && value >= 40) return;
      // Jumps of k % every k ticks: the same average speed, but most values are never shown.
      if (${options.jumps}) { if (++ticks < jump) return; ticks = 0; value = Math.min(100, value + jump); jump = 3 + Math.floor(Math.random() * 7); }
      else value = Math.min(100, value + 1);
      show();
      if (value >= 100) { clearInterval(timer); timer = null; }
    }, ${tickMs});
  };
  document.getElementById('stop').onclick = function () { clearInterval(timer); timer = null; document.getElementById('stoppedAt').value = String(value); };
})();
</script>`,
    `var p = document.getElementById('progress'), value = Number(p.getAttribute('aria-valuenow'));
     var stopped = document.getElementById('stoppedAt').value;
     if (stopped) return o.click(document.getElementById('save'), 'Save');
     if (value === 0 && !window.__started) { window.__started = true; return o.click(document.getElementById('start'), 'Start'); }
     if (value < Number(params.target)) return o.wait(${options.slow ? 600 : 150}, 'Wait for the progress to reach ' + params.target + '%');
     return o.click(document.getElementById('stop'), 'Stop');`,
  );
}

/** A notes field whose label is empty at load and filled in 1 to 2 s later. */
function latePage(random: Random): string {
  const delay = random.int(1000, 1999);
  return layout(
    'Notes',
    `<form method="post" action="/late"><label for="notes" id="notes-label"></label><br><textarea id="notes" name="notes" rows="3" data-hint="notes"></textarea><br><button type="submit" id="save">Save</button></form>
<script>setTimeout(function () { document.getElementById('notes-label').textContent = 'Notes'; }, ${delay});</script>`,
    `if (!document.getElementById('notes-label').textContent) return o.wait(300, 'Wait for the form to finish loading');
     var el = document.getElementById('notes');
     if (el.value !== params.notes) return o.fill(el, params.notes, 'Fill Notes');
     return o.click(document.getElementById('save'), 'Save');`,
  );
}

/**
 * A button that loads data: 1 to 2 s later a paragraph says so, and clicking that paragraph is
 * the task's last step (a plain <p>, no role to count it by, beside another paragraph).
 */
function ajaxPage(random: Random): string {
  const delay = random.int(1000, 2000);
  return layout(
    'AJAX data',
    `<p>Press the button to load the data.</p><button type="button" id="load">Load data</button><div id="content"></div>
<form id="f" method="post" action="/ajax"><input type="hidden" name="clicked" value="label"></form>
<script>document.getElementById('load').onclick = function () { setTimeout(function () { var p = document.createElement('p'); p.textContent = 'Data loaded with AJAX get request.'; p.onclick = function () { document.getElementById('f').submit(); }; document.getElementById('content').appendChild(p); }, ${delay}); window.__loading = true; };</script>`,
    `var label = document.querySelector('#content p');
     if (!window.__loading) return o.click(document.getElementById('load'), 'Load the data');
     if (!label) return o.wait(500, 'Wait for the data');
     return o.click(label, 'Click the loaded data');`,
  );
}

/** Rename by a native prompt that offers the current name; the page shows and posts the answer. */
function promptPage(): string {
  return layout(
    'Rename',
    `<p>Name: <b id="name">Untitled</b></p><button type="button" id="rename">Rename</button>
<form method="post" action="/prompt"><input type="hidden" name="name" id="posted" value="Untitled"><button type="submit" id="save">Save</button></form>
<script>document.getElementById('rename').onclick = function () { var answer = prompt('New name for the report?', 'Untitled report'); window.__renamed = true; if (answer === null) return; document.getElementById('name').textContent = answer; document.getElementById('posted').value = answer; };</script>`,
    `if (!window.__renamed) return o.click(document.getElementById('rename'), 'Rename the report');
     return o.click(document.getElementById('save'), 'Save');`,
  );
}

export async function startCorpusApp(seed = 1): Promise<CorpusApp> {
  const next = loads(seed);
  let conditions: CorpusConditions = {};
  const submissions: Submission[] = [];
  let destructive = 0;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { url, method, path } = requestTarget(req);
    if (method === 'POST' && path === '/destructive') {
      destructive++;
      res.writeHead(204).end();
      return;
    }
    if (method === 'POST') {
      const fields = formFields(await readBody(req, 64 * 1024));
      submissions.push({ page: path.slice(1), fields });
      // Where a progress was stopped is the page's moment, not a value the task gave: in the saved
      // page's address it would equal the target whenever a recording stopped right on it, and the
      // end check would then hold every replay to that number (see docs/limits.md).
      const shown = path === '/progress' ? {} : fields;
      return redirect(res, 303, `/saved?${new URLSearchParams(shown).toString()}`);
    }
    switch (path) {
      case '/rows':
        return sendHtml(res, 200, rowsPage(next(), { headers: true, renamed: conditions.renamedHeader }));
      case '/nameless':
        return sendHtml(res, 200, rowsPage(next(), { headers: false, renamed: undefined }));
      case '/known':
        return sendHtml(res, 200, knownPage(next()));
      case '/people':
        return sendHtml(res, 200, peoplePage(next()));
      case '/toolbar':
        return sendHtml(res, 200, toolbarPage(next(), conditions.shuffleIcons === true));
      case '/progress':
        return sendHtml(res, 200, progressPage(next(), { jumps: conditions.progress === 'jumps', stall: conditions.progress === 'stall', clock: conditions.clock === true, restyledStop: conditions.restyledStop === true, slow: conditions.slowProgress === true }));
      case '/late':
        return sendHtml(res, 200, latePage(next()));
      case '/ajax':
        return sendHtml(res, 200, ajaxPage(next()));
      case '/prompt':
        return sendHtml(res, 200, promptPage());
      case '/saved':
        return sendHtml(res, 200, SAVED_PAGE(Object.fromEntries(url.searchParams)));
      default:
        return sendHtml(res, 404, layout('Not found', '<p>Not found</p>', `return o.done('Not found');`));
    }
  }

  const server = await listenLocal(handle);
  return {
    origin: server.origin,
    set(changed) {
      conditions = { ...changed };
    },
    url: (path) => `${server.origin}${path}`,
    submissions,
    get destructive() {
      return destructive;
    },
    close: server.close,
  };
}

export { PEOPLE };

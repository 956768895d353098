/**
 * Pages where a parameter's value decides what to do without any step showing it, or is set by
 * clicks rather than typed: a count of presses, a choice between two side-by-side buttons, a
 * yes/no toggle, a quantity stepper, a calendar, a list of countries; and pages that open native
 * dialogs. Unlike the benchmark apps, nothing here is a form to fill. Every change is saved on the
 * server the moment it happens (a synchronous request, as old apps do), so a test reads every
 * action the page took, not only the final state.
 *
 * Each page has an oracle, window.__plan(params), that reads only the live DOM and answers as an
 * Agent would (see oracleAgent.ts): a scripted agent built on it is an ordinary Agent.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { listenLocal, requestTarget, sendHtml, sendJson } from '../../src/demo/app/http.js';

/** One action the server saw: which page, what, and the value it carried. */
export type ChoiceEvent = { page: string; kind: string; value: string };

export type ChoicesApp = {
  url(path: string): string;
  /** Every action the server saw, in order. */
  readonly events: ChoiceEvent[];
  /** The events since the last `mark()`. */
  since(): ChoiceEvent[];
  mark(): void;
  close(): Promise<void>;
};

const ORACLE = `<script>
function __save(kind, value) { var x = new XMLHttpRequest(); x.open('POST', '/event?page=' + encodeURIComponent(location.pathname) + '&kind=' + encodeURIComponent(kind) + '&value=' + encodeURIComponent(value), false); x.send(); }
function __centre(el) { var r = el.getBoundingClientRect(); return { x: Math.round(r.x + r.width / 2), y: Math.round(r.y + r.height / 2) }; }
function __click(el, intent) { var c = __centre(el); return { actions: [{ type: 'click', x: c.x, y: c.y }], intent: intent }; }
function __done(answer) { return { done: true, answer: answer }; }
</script>`;

function layout(title: string, body: string, plan: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>
<style>
body { font: 15px "Trebuchet MS", Helvetica, sans-serif; margin: 20px 28px; background: #eef3f7; color: #1d2a33; }
h1 { font-size: 19px; font-weight: normal; border-bottom: 2px solid #7fa6c1; padding-bottom: 4px; }
.card { background: #fff; border: 1px solid #b8cad6; padding: 12px 16px; width: 420px; }
button { font: 14px "Trebuchet MS", Helvetica, sans-serif; padding: 5px 14px; margin-right: 6px; }
.status { color: #2c6e49; margin-top: 10px; min-height: 18px; }
</style></head><body>${ORACLE}<h1>${title}</h1><div class="card">${body}</div><p class="status" id="status"></p>
<script>window.__plan = function (params) { ${plan} };</script></body></html>`;
}

const PAGES: Record<string, (query: URLSearchParams) => string> = {
  /** Press the bell {{times}} times: how many presses, no step shows. */
  '/bell': () =>
    layout(
      'Front desk',
      `<p>Guests waiting: 3</p><button id="bell" onclick="__save('ring', String(++window.__rings))">&#128276; Ring</button>`,
      `var want = Number(params.times); var rung = window.__rings || 0;
       if (rung < want) return __click(document.getElementById('bell'), 'Ring the bell');
       return __done('rang ' + rung + ' times');`,
    ).replace('<script>window.__plan', '<script>window.__rings = 0;</script><script>window.__plan'),
  /** Ship by air when {{speed}} is fast, by ground otherwise: two buttons side by side, neither named by the value. */
  '/shipping': () =>
    layout(
      'Order 7: 2 boxes, 14 kg',
      `<p>Dispatch:</p><button id="air" onclick="ship('air')">Air freight</button><button id="ground" onclick="ship('ground')">Ground</button>
<script>function ship(way) { if (window.__shipped) { __save('again', way); return; } window.__shipped = way; __save('ship', way); document.getElementById('status').textContent = 'Dispatched by ' + way + '.'; }</script>`,
      `if (window.__shipped) return __done('shipped by ' + window.__shipped);
       return __click(document.getElementById(params.speed === 'fast' ? 'air' : 'ground'), 'Dispatch the order');`,
    ),
  /** Close a ticket, first switching the customer notice on when {{notify}} is y: a toggle button, not a checkbox. */
  '/ticket': () =>
    layout(
      'Ticket 31: printer offline',
      `<p><button id="notify" aria-pressed="false" onclick="var on = this.getAttribute('aria-pressed') !== 'true'; this.setAttribute('aria-pressed', String(on)); this.style.background = on ? '#cfe8d6' : ''; __save('notify', String(on))">&#9993; Notify customer</button></p>
<p><button id="close" onclick="window.__closed = true; __save('close', document.getElementById('notify').getAttribute('aria-pressed')); document.getElementById('status').textContent = 'Closed.'">Close ticket</button></p>`,
      `if (window.__closed) return __done('closed');
       var on = document.getElementById('notify').getAttribute('aria-pressed') === 'true';
       if (params.notify === 'y' && !on) return __click(document.getElementById('notify'), 'Switch the customer notice on');
       return __click(document.getElementById('close'), 'Close the ticket');`,
    ),
  /** A quantity stepper: a read-only field between minus and plus, saved on every change. */
  '/stepper': () =>
    layout(
      'Reorder: toner cartridges',
      `<p>Quantity <button id="minus" aria-label="Fewer">&minus;</button><input id="qty" readonly value="0" style="width: 40px; text-align: center"><button id="plus" aria-label="More">+</button></p>
<p><button id="confirm" onclick="window.__confirmed = true; __save('confirm', document.getElementById('qty').value); document.getElementById('status').textContent = 'Ordered.'">Confirm order</button></p>
<script>
function change(by) { var q = document.getElementById('qty'); q.value = String(Number(q.value) + by); __save('set', q.value); }
document.getElementById('minus').onclick = function () { change(-1); };
document.getElementById('plus').onclick = function () { change(1); };
</script>`,
      `if (window.__confirmed) return __done('ordered');
       var have = Number(document.getElementById('qty').value), want = Number(params.quantity);
       if (have < want) return __click(document.getElementById('plus'), 'One more');
       if (have > want) return __click(document.getElementById('minus'), 'One fewer');
       return __click(document.getElementById('confirm'), 'Confirm the order');`,
    ),
  /** A calendar: a read-only ISO date field that opens month pages of day buttons; a day saves at once. */
  '/calendar': () =>
    layout(
      'Service visit',
      `<p>Visit on <input id="visit" readonly placeholder="yyyy-mm-dd" style="width: 110px"></p><div id="cal" hidden style="border: 1px solid #7fa6c1; padding: 6px; width: 260px"></div>
<p><button id="book" onclick="window.__booked = true; __save('book', document.getElementById('visit').value); document.getElementById('status').textContent = 'Booked.'">Book the visit</button></p>
<script>
var NAMES = ['January','February','March','April','May','June','July','August','September','October','November','December'];
var shown = { y: 2025, m: 0 };
function pad(n) { return (n < 10 ? '0' : '') + n; }
function draw() {
  var days = new Date(shown.y, shown.m + 1, 0).getDate(), html = '<div><button id="back" aria-label="Earlier month">&laquo;</button> <b>' + NAMES[shown.m] + ' ' + shown.y + '</b> <button id="on" aria-label="Later month">&raquo;</button></div>';
  for (var d = 1; d <= days; d++) html += '<button class="day" data-day="' + d + '" style="width: 34px; margin: 1px">' + d + '</button>';
  var cal = document.getElementById('cal'); cal.innerHTML = html;
  document.getElementById('back').onclick = function () { shown.m--; if (shown.m < 0) { shown.m = 11; shown.y--; } __save('month', shown.y + '-' + pad(shown.m + 1)); draw(); };
  document.getElementById('on').onclick = function () { shown.m++; if (shown.m > 11) { shown.m = 0; shown.y++; } __save('month', shown.y + '-' + pad(shown.m + 1)); draw(); };
  cal.querySelectorAll('.day').forEach(function (b) { b.onclick = function () { var v = shown.y + '-' + pad(shown.m + 1) + '-' + pad(Number(b.dataset.day)); document.getElementById('visit').value = v; __save('set', v); cal.hidden = true; }; });
}
document.getElementById('visit').onclick = function () { draw(); document.getElementById('cal').hidden = false; };
</script>`,
      `if (window.__booked) return __done('booked');
       var field = document.getElementById('visit'), cal = document.getElementById('cal');
       if (field.value === params.visit) return __click(document.getElementById('book'), 'Book the visit');
       if (cal.hidden) return __click(field, 'Open the calendar');
       var want = params.visit.split('-').map(Number), at = shown.y * 12 + shown.m, to = want[0] * 12 + want[1] - 1;
       if (at < to) return __click(document.getElementById('on'), 'Next month');
       if (at > to) return __click(document.getElementById('back'), 'Previous month');
       return __click(cal.querySelector('.day[data-day="' + want[2] + '"]'), 'Pick the day');`,
    ),
  /** A list of countries (flags and names in plain spans, no ARIA) that writes the choice into a read-only field. */
  '/country': () =>
    layout(
      'Supplier: Fjord Timber AS',
      `<p>Country <input id="country" readonly placeholder="choose..." style="width: 120px"></p>
<div id="list" hidden style="border: 1px solid #7fa6c1; width: 170px; background: #fff">${[
        ['&#127475;&#127476;', 'Norway'],
        ['&#127464;&#127473;', 'Chile'],
        ['&#127471;&#127477;', 'Japan'],
        ['&#127477;&#127466;', 'Peru'],
      ]
        .map(([flag, name]) => `<span class="choice" style="display: block; padding: 3px 8px; cursor: pointer">${flag} ${name}</span>`)
        .join('')}</div>
<p><button id="save" onclick="window.__saved = true; __save('save', document.getElementById('country').value); document.getElementById('status').textContent = 'Saved.'">Save supplier</button></p>
<script>
document.getElementById('country').onclick = function () { document.getElementById('list').hidden = false; };
document.querySelectorAll('.choice').forEach(function (c) { c.onclick = function () { var v = c.textContent.replace(/^\\S+\\s/, ''); document.getElementById('country').value = v; __save('set', v); document.getElementById('list').hidden = true; }; });
</script>`,
      `if (window.__saved) return __done('saved');
       var field = document.getElementById('country'), list = document.getElementById('list');
       if (field.value === params.country) return __click(document.getElementById('save'), 'Save the supplier');
       if (list.hidden) return __click(field, 'Open the country list');
       var choices = document.querySelectorAll('.choice');
       for (var i = 0; i < choices.length; i++) if (choices[i].textContent.indexOf(params.country) >= 0) return __click(choices[i], 'Choose ' + params.country);
       return __done('no such country');`,
    ),
  /** One field and its button, `?top=` pixels down: near the bottom edge of a small viewport. */
  '/subscribe': (query) =>
    layout(
      'Newsletter',
      `<div style="height: ${Number(query.get('top') ?? 0)}px"></div>Email <input id="email" style="width: 200px"> <button id="join" onclick="__save('join', document.getElementById('email').value); document.getElementById('status').textContent = 'Subscribed.'">Join</button>`,
      `if (document.getElementById('status').textContent) return __done('joined');
       var field = document.getElementById('email');
       if (field.value !== params.email) { var c = __centre(field); return { actions: [{ type: 'click', x: c.x, y: c.y }, { type: 'type', text: params.email }], intent: 'Type the email' }; }
       return __click(document.getElementById('join'), 'Join');`,
    ),
  /** Native dialogs, each opened by a button; the page says what came back. */
  '/alert': () => dialogPage('Archive', `alert('The report was archived.'); done('archived');`),
  '/confirm': () => dialogPage('Discard', `done(confirm('Discard the draft?') ? 'discarded' : 'kept');`),
  '/prompt': () => dialogPage('Duplicate', `var name = prompt('Name of the copy?', 'Copy of report'); done(name === null ? 'cancelled' : 'copied as ' + name);`),
};

function dialogPage(title: string, onClick: string): string {
  return layout(
    title,
    `<button id="go">${title}</button><script>function done(what) { document.getElementById('status').textContent = what; __save('after', what); }
document.getElementById('go').onclick = function () { ${onClick} };</script>`,
    `var said = document.getElementById('status').textContent; if (said) return __done(said); return __click(document.getElementById('go'), '${title}');`,
  );
}

export async function startChoicesApp(): Promise<ChoicesApp> {
  const events: ChoiceEvent[] = [];
  let marked = 0;
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { url, method, path } = requestTarget(req);
    if (method === 'POST' && path === '/event') {
      events.push({ page: url.searchParams.get('page') ?? '', kind: url.searchParams.get('kind') ?? '', value: url.searchParams.get('value') ?? '' });
      sendJson(res, 200, { ok: true });
      return;
    }
    const page = PAGES[path];
    if (!page) {
      sendHtml(res, 404, '<!doctype html><title>Not found</title><p>Not found.</p>');
      return;
    }
    sendHtml(res, 200, page(url.searchParams));
  }
  const server = await listenLocal(handle);
  return {
    url: (path) => `${server.origin}${path}`,
    events,
    since: () => events.slice(marked),
    mark() {
      marked = events.length;
    },
    close: server.close,
  };
}

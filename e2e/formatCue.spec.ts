import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test as base } from '@playwright/test';
import type { RunResult } from '../src/engine/runResult.js';
import { Rote } from '../src/rote.js';
import { oracleAgent } from './support/oracleAgent.js';

/**
 * A date field whose format follows the user's setting (dd/mm/yyyy or mm/dd/yyyy), said only by
 * its placeholder or by small print after it. Recorded on dd/mm/yyyy, the step types the start in
 * the format it learned (`03/04/2025` for 3 April). Found by the probe of pages unlike ours: after
 * the setting changed to mm/dd/yyyy, a replay typed 03/04/2025 again, the page read 4 March, and
 * the run said `replayed`. The step is now replayed only where the field still says the format it
 * was recorded with (checks/formatCue.ts); elsewhere the agent types it.
 */

type Leave = { start: string; days: string };
/** The user's setting (the format) and how the page says it are the app's state: the form's address stays the same. */
type Hint = 'placeholder' | 'after' | 'picker';
type LeaveApp = { url: string; show(fmt: string, hint: Hint): void; readonly sent: Leave[]; close(): Promise<void> };

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** The form; the page turns what was typed into an ISO date by its own format when it is sent. */
function leavePage(fmt: string, hint: Hint): string {
  // After the field: its format in small print, behind a date picker's button in the last case.
  const field = hint === 'placeholder' ? `<input id="sd" autocomplete="off" placeholder="${fmt}">` : `<input id="sd" autocomplete="off">${hint === 'picker' ? '<button type="button" aria-label="Pick a date">...</button>' : ''} <small>${fmt.toUpperCase()}</small>`;
  return `<!doctype html><title>Request leave</title><h1>Request leave</h1>
<form method="post" action="/leave" id="lf"><input type="hidden" name="start" id="iso">
<p><label for="sd">First day</label> ${field}</p>
<p><label for="dy">Days</label> <input id="dy" name="days" autocomplete="off"></p>
<button id="go">Request</button></form>
<script>
var FMT = ${JSON.stringify(fmt)}, MONTHS = ${JSON.stringify(MONTHS)};
document.getElementById('lf').addEventListener('submit', function () {
  var p = document.getElementById('sd').value.split('/');
  var day = FMT === 'dd/mm/yyyy' ? p[0] : p[1], month = FMT === 'dd/mm/yyyy' ? p[1] : p[0];
  document.getElementById('iso').value = p[2] + '-' + month + '-' + day;
});
// The oracle a model stands in for: reads the field's format off the page and types the date in it.
window.__plan = function (params) {
  var fill = function (el, text, intent) { var r = el.getBoundingClientRect(); return { actions: [{ type: 'click', x: Math.round(r.x + r.width / 2), y: Math.round(r.y + r.height / 2), button: 'left' }, { type: 'type', text: text }], intent: intent }; };
  var words = params.start.split(' '), dd = ('0' + words[0]).slice(-2), mm = ('0' + (MONTHS.indexOf(words[1]) + 1)).slice(-2);
  var want = FMT === 'dd/mm/yyyy' ? dd + '/' + mm + '/' + words[2] : mm + '/' + dd + '/' + words[2];
  var sd = document.getElementById('sd'), dy = document.getElementById('dy');
  if (sd.value !== want) return fill(sd, want, 'Type the first day as ' + FMT);
  if (dy.value !== params.days) return fill(dy, params.days, 'Type the days');
  var go = document.getElementById('go').getBoundingClientRect();
  return { actions: [{ type: 'click', x: Math.round(go.x + go.width / 2), y: Math.round(go.y + go.height / 2), button: 'left' }], intent: 'Request' };
};
</script>`;
}

const SENT_PAGE = `<!doctype html><title>Requested</title><p>Your leave is requested.</p><script>window.__plan = function () { return { done: true }; };</script>`;

async function startLeaveApp(): Promise<LeaveApp> {
  const sent: Leave[] = [];
  let shown: { fmt: string; hint: Hint } = { fmt: 'dd/mm/yyyy', hint: 'placeholder' };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method === 'POST' && url.pathname === '/leave') {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        const form = new URLSearchParams(body);
        sent.push({ start: form.get('start') ?? '', days: form.get('days') ?? '' });
        res.writeHead(200, { 'content-type': 'text/html' }).end(SENT_PAGE);
      });
      return;
    }
    if (url.pathname !== '/form') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html' }).end(leavePage(shown.fmt, shown.hint));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: `${origin}/form`, show: (fmt, hint) => void (shown = { fmt, hint }), sent, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const test = base.extend<{ app: LeaveApp; rote: Rote }>({
  app: async ({}, use) => {
    const app = await startLeaveApp();
    await use(app);
    await app.close();
  },
  rote: async ({}, use) => {
    const rote = await Rote.open({ store: ':memory:' });
    await use(rote);
    await rote.close();
  },
});

const TASK = 'Request {{days}} days of leave starting {{start}}';

const HINTS: Record<Hint, string> = { placeholder: 'its placeholder', after: 'small print after it', picker: "small print after a date picker's button" };

for (const hint of ['placeholder', 'after', 'picker'] as const) {
  test(`a date typed in the format the field showed (${HINTS[hint]}) is not typed so once the field shows another`, async ({ app, rote, context }) => {
    const run = async (fmt: string, params: Leave): Promise<RunResult> => {
      const page = await context.newPage();
      try {
        app.show(fmt, hint);
        await page.goto(app.url);
        return await rote.run(page, { task: TASK, params, agent: oracleAgent(page), checkTimeout: 1500 });
      } finally {
        await page.close();
      }
    };
    const recorded = await run('dd/mm/yyyy', { start: '3 April 2025', days: '5' });
    expect(recorded.status, recorded.error).toBe('agent');
    expect(app.sent.at(-1)).toEqual({ start: '2025-04-03', days: '5' });

    // The same format: replayed from the cache, in the format learned (12/05/2025 for 12 May).
    const same = await run('dd/mm/yyyy', { start: '12 May 2025', days: '2' });
    expect(same.status, same.divergences.map((d) => d.reason).join('; ')).toBe('replayed');
    expect(app.sent.at(-1)).toEqual({ start: '2025-05-12', days: '2' });

    // The field now asks for mm/dd/yyyy: the typing step is not replayed; the agent types 04/03/2025.
    const changed = await run('mm/dd/yyyy', { start: '3 April 2025', days: '7' });
    expect(changed.status).not.toBe('replayed');
    expect(changed.agentCalls).toBeGreaterThan(0);
    expect(changed.divergences[0]?.reason).toMatch(hint === 'placeholder' ? /another format.*placeholder "mm\/dd\/yyyy" \(recorded "dd\/mm\/yyyy"\)/ : /another format.*text after it "(\.\.\. )?MM\/DD\/YYYY Days" \(recorded "(\.\.\. )?DD\/MM\/YYYY Days"\)/);
    expect(app.sent.at(-1)).toEqual({ start: '2025-04-03', days: '7' });

    // What the agent did there is a branch of its own, replayed under that format with new values.
    const again = await run('mm/dd/yyyy', { start: '9 June 2025', days: '3' });
    expect(again.status, again.divergences.map((d) => d.reason).join('; ')).toBe('replayed');
    expect(app.sent.at(-1)).toEqual({ start: '2025-06-09', days: '3' });
  });
}

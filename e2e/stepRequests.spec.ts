import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test as base, expect, type Page } from '@playwright/test';
import { scriptedAgent } from '../src/agent/scriptedAgent.js';
import type { Rote } from '../src/rote.js';
import { memoryRote, startedApp } from './support/appTest.js';

/**
 * A save done by fetch, whose answer comes 400 ms later: a replay's last step is that save, so the
 * run must not end (and its caller close the page) while the save is on its way, and a document
 * that loads while it is (the form's frame swapped) leaves the run unable to say it was replayed.
 */
type SaveSite = { origin: string; saves: string[]; onSave?: () => void; close(): Promise<void> };

const FORM = `<!doctype html><title>Amount</title><style>body{font:14px sans-serif;margin:20px}</style>
<label>Amount <input id="amount"></label> <button id="save">Save</button> <span id="status"></span>
<script>document.getElementById('save').onclick = function () {
  var value = document.getElementById('amount').value;
  fetch('/save', { method: 'POST', body: value }).then(function (r) { return r.text(); }).then(function (text) { document.getElementById('status').textContent = 'Saved ' + text; });
};</script>`;

const FRAMED = `<!doctype html><title>Account</title><h1 style="font:18px sans-serif">Account</h1><iframe src="/form" style="width:600px;height:120px;border:1px solid #999"></iframe>`;

async function startSaveSite(): Promise<SaveSite> {
  const site: SaveSite = { origin: '', saves: [], close: async () => undefined };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'POST' && req.url === '/save') {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        site.saves.push(body);
        site.onSave?.();
        setTimeout(() => res.writeHead(200, { 'content-type': 'text/plain' }).end(body), 400);
      });
      return;
    }
    const page = req.url === '/' ? FRAMED : req.url?.startsWith('/form') ? FORM : req.url === '/plain' ? FORM : undefined;
    if (page === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html' }).end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  site.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  site.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return site;
}

const saveTest = base.extend<{ site: SaveSite; rote: Rote }>({ site: startedApp(startSaveSite), rote: memoryRote });

/** Records the amount, the save, on `path`; the field and button are found where they are now (in the frame or not). */
async function record(rote: Rote, page: Page, site: SaveSite, path: string, task: string) {
  await page.goto(site.origin + path);
  const scope = path === '/' ? page.frameLocator('iframe') : page;
  const field = (await scope.locator('#amount').boundingBox())!;
  const save = (await scope.locator('#save').boundingBox())!;
  const agent = scriptedAgent([
    { actions: [{ type: 'click', x: field.x + field.width / 2, y: field.y + field.height / 2 }, { type: 'type', text: '{{amount}}' }, { type: 'click', x: save.x + save.width / 2, y: save.y + save.height / 2 }] },
    { done: true },
  ]);
  const recorded = await rote.run(page, { task, params: { amount: '12' }, agent });
  expect(recorded.status, recorded.error).toBe('agent');
}

saveTest('a replay whose last step saves by fetch ends once the answer has come, not while the save is on its way', async ({ rote, page, site }) => {
  const task = 'Save the amount {{amount}}';
  await record(rote, page, site, '/plain', task);
  await page.goto(site.origin + '/plain');
  const result = await rote.run(page, { task, params: { amount: '34' }, mode: 'replay-only' });
  expect(result.status, result.error).toBe('replayed');
  // Read at once: the page has the answer (400 ms after the save) by the time the run returned.
  expect(await page.locator('#status').textContent()).toBe('Saved 34');
  expect(site.saves).toEqual(['12', '34']);
});

saveTest('a frame swapped while the last step\'s save is on its way: the run does not say replayed', async ({ rote, page, site }) => {
  const task = 'Save the framed amount {{amount}}';
  await record(rote, page, site, '/', task);
  await page.goto(site.origin + '/');
  await page.frameLocator('iframe').locator('#save').waitFor();
  // The moment the save arrives, the page swaps its frame: the answer never reaches the form.
  site.onSave = () => void page.evaluate(`document.querySelector('iframe').src = '/form?again=1'`).catch(() => undefined);
  const result = await rote.run(page, { task, params: { amount: '56' }, mode: 'replay-only' });
  expect(result.status).toBe('diverged');
  expect(result.error).toMatch(/loaded a new document while step 3's work settled/);
});

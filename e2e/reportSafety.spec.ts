import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import type { Agent } from '../src/agent/agent.js';
import { scriptedAgent } from '../src/agent/scriptedAgent.js';
import { secret } from '../src/params/secret.js';
import { writeReport } from '../src/report/writeReport.js';
import { expect, test } from './fixtures.js';

// Markup a hostile or careless page puts where rote reads text: its title, a label, and (through
// the agent) an intent and an error message. Each, if it ever ran, would set window.__pwned.
const TITLE = `<script>window.__pwned=1</script> Claims <img src=x onerror="window.__pwned=2">`;
const LABEL = `<img src=x onerror="window.__pwned=3"> Claim number`;
const INTENT = `Fill "<img src=x onerror=window.__pwned=4>"`;
const ERROR = `<script>window.__pwned=5</script> the agent gave up`;
const PINS = ['Sekret-4711-alpha', 'Sekret-9922-bravo', 'Sekret-5050-charlie', 'Sekret-6060-delta'] as const;

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const AT = { claim: { x: 20, y: 40 }, pin: { x: 20, y: 90 }, submit: { x: 20, y: 140 } };
const centre = (at: { x: number; y: number }) => ({ x: at.x + 110, y: at.y + 15 });

/**
 * The claims page: the text shown as text (escaped in the source), the PIN echoed in plain
 * magenta text right against the Submit button (no other magenta on the page, so a picture that
 * shows it unpainted is found by its colour).
 */
function claimsPage(covered: boolean, submitLabel: string): string {
  const place = (at: { x: number; y: number }) => `position:absolute;left:${at.x}px;top:${at.y}px;width:220px;height:30px;box-sizing:border-box;margin:0`;
  return `<!doctype html><html><head><title>${escapeHtml(TITLE)}</title></head><body style="margin:0;font:14px sans-serif">
<form method="post" action="/claims">
<label for="claim" style="position:absolute;left:20px;top:20px">${escapeHtml(LABEL)}</label>
<input id="claim" name="claim" style="${place(AT.claim)}">
<input id="pin" name="pin" type="password" aria-label="PIN" style="${place(AT.pin)}">
<button type="submit" style="${place(AT.submit)}">${submitLabel}</button>
<span id="echo" style="position:absolute;left:243px;top:${AT.submit.y + 6}px;white-space:nowrap;color:#ff00ff;font:bold 18px sans-serif"></span>
</form>
${covered ? '<div style="position:fixed;inset:0;background:rgba(0,0,0,0.35)"></div>' : ''}
<script>
var pin = document.getElementById('pin');
pin.addEventListener('input', function () { document.getElementById('echo').textContent = pin.value; });
</script></body></html>`;
}

async function startClaimsApp() {
  const state = { covered: false, submitLabel: 'Submit', claims: [] as { claim: string; pin: string }[] };
  const server = createServer((req, res) => {
    if (req.method === 'POST') {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const form = new URLSearchParams(body);
        state.claims.push({ claim: form.get('claim') ?? '', pin: form.get('pin') ?? '' });
        res.writeHead(303, { location: '/done' }).end();
      });
      return;
    }
    if (req.url === '/done') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Done</title><h1>Claim filed</h1>');
    res.writeHead(200, { 'content-type': 'text/html' }).end(claimsPage(state.covered, state.submitLabel));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/claims`;
  return Object.assign(state, { url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
}

function claimsAgent() {
  return scriptedAgent([
    { intent: INTENT, actions: [{ type: 'click', ...centre(AT.claim) }, { type: 'type', text: '{{claim}}' }, { type: 'click', ...centre(AT.pin) }, { type: 'type', text: '{{pin}}' }] },
    { intent: 'Submit the claim', actions: [{ type: 'click', ...centre(AT.submit) }] },
    { done: true },
  ]);
}

const failingAgent: Agent = {
  name: 'failing',
  async next() {
    throw new Error(ERROR);
  },
};

/** Pixels of the echo's colour (#ff00ff), also under the dark overlay or lossy compression. */
async function magentaPixels(image: Buffer): Promise<number> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let count = 0;
  for (let i = 0; i < data.length; i += info.channels) {
    const [r, g, b] = [data[i]!, data[i + 1]!, data[i + 2]!];
    if (r > 110 && b > 110 && g < 70 && Math.abs(r - b) < 50) count++;
  }
  return count;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

test('page text with markup is shown as text in the report, and no byte of the report folder holds a secret', async ({ rote, context }, testInfo) => {
  const app = await startClaimsApp();
  try {
    const run = async (claim: string, pin: string, options: Partial<Parameters<typeof rote.run>[1]> = {}) => {
      const page = await context.newPage();
      await page.goto(app.url);
      const result = await rote.run(page, { task: 'File claim {{claim}}', params: { claim, pin: secret(pin) }, agent: claimsAgent(), ...options });
      await page.close();
      return result;
    };
    expect((await run('C-100', PINS[0])).status).toBe('agent');
    expect((await run('C-200', PINS[1])).status).toBe('replayed');
    expect(app.claims.map((claim) => claim.pin)).toEqual([PINS[0], PINS[1]]);
    app.covered = true;
    const diverged = await run('C-300', PINS[2], { mode: 'replay-only' });
    expect(diverged.status).toBe('diverged');
    // Fails after the PIN is typed: the Submit button is renamed, the agent is down; the last screen shows the echo.
    app.covered = false;
    app.submitLabel = 'Send';
    const failed = await run('C-400', PINS[3], { agent: failingAgent });
    expect(failed.status).toBe('failed');
    expect(failed.cachedSteps).toBe(4);

    const dir = testInfo.outputPath('report');
    await writeReport(rote.store, {}, dir);
    // Each run's page shows its values, the secret masked.
    const failedPage = readFileSync(join(dir, 'runs', `${failed.runId}.html`), 'utf8');
    expect(failedPage).toContain('<code>claim</code> = <code>C-400</code>');
    expect(failedPage).toContain('<code>pin</code> = <code>********</code>');

    // Not one byte of any file holds a secret: pages, the marker, the pictures.
    const files = filesUnder(dir);
    expect(files.filter((file) => file.endsWith('.html')).length).toBeGreaterThanOrEqual(6);
    expect(files.some((file) => /\.(png|webp)$/.test(file))).toBe(true);
    for (const file of files) {
      const bytes = readFileSync(file);
      for (const pin of PINS) expect(bytes.includes(pin), `${file} holds a secret`).toBe(false);
    }

    // No picture shows the echoed PIN: wherever a secret showed, it was painted over before it was stored.
    const pictures = files.filter((file) => /\.(png|webp)$/.test(file));
    expect(pictures.some((file) => file.includes('images'))).toBe(true);
    for (const file of pictures) expect(await magentaPixels(readFileSync(file)), `${file} shows the secret's magenta echo`).toBe(0);
    const failedRun = (await rote.store.findRuns({ ids: [failed.runId] }))[0]!;
    expect(failedRun.screenshotHash, 'the failed run kept its last screen').toBeTruthy();

    // Every page opens with its markup as text: no script of the page's ran, no image but the report's own.
    const page = await context.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    for (const file of files.filter((path) => path.endsWith('.html'))) {
      await page.goto(pathToFileURL(file).href);
      expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned), file).toBeUndefined();
      const sources = await page.locator('img').evaluateAll((images) => images.map((image) => image.getAttribute('src') ?? ''));
      expect(sources.filter((src) => !/^(\.\.\/)?images\/[0-9a-f]{64}\.(png|webp)$/.test(src)), file).toEqual([]);
    }
    expect(dialogs).toEqual([]);

    // The markup reads as the words it is, where a person looks for it.
    await page.goto(pathToFileURL(join(dir, 'runs', `${diverged.runId}.html`)).href);
    // The reason quotes names as JSON strings: the title's markup stands in it with its quotes escaped.
    await expect(page.locator('li.divergence .reason')).toContainText(JSON.stringify(TITLE));
    await page.goto(pathToFileURL(join(dir, 'runs', `${failed.runId}.html`)).href);
    await expect(page.locator('#run-error')).toContainText(ERROR);
    await page.goto(pathToFileURL(join(dir, 'tasks', `${diverged.taskKey}.html`)).href);
    await expect(page.locator('#trajectory')).toContainText(INTENT);
    await expect(page.locator('#trajectory')).toContainText(LABEL);
  } finally {
    await app.close();
  }
});

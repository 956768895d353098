import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import type { Page } from 'playwright';
import type { Observation } from '../src/agent/agent.js';
import { scriptedAgent } from '../src/agent/scriptedAgent.js';
import { RoteError } from '../src/errors/roteError.js';
import { secret } from '../src/params/secret.js';
import { Rote } from '../src/rote.js';
import { expect, test } from './fixtures.js';
import { OutputCapture } from './support/outputCapture.js';

// Values with characters a URL must encode (and a space, which a form sends as "+").
const FIRST = 'hunter?2 alpha&x';
const SECOND = 'Zq9#bravo pw';
const THIRD = 'x7 charlie/pw%';
const TASK = 'Log in as {{user}}';

/** Every form a value may take in the store, a log or a URL. */
function formsOf(value: string): string[] {
  const percent = encodeURIComponent(value);
  return [value, percent, percent.toLowerCase(), new URLSearchParams({ v: value }).toString().slice(2), encodeURI(value), JSON.stringify(value).slice(1, -1)];
}

const place = (y: number) => `position:absolute;left:20px;top:${y}px;width:320px;height:30px;box-sizing:border-box;margin:0;text-align:left`;
const AT = { password: 70, remember: 120, submit: 170 };

/**
 * A legacy login reached by a link carrying the token in its query. The page echoes the token: in
 * a paragraph, in the label of a "remember" checkbox and in the submit button's own name; the
 * submit asks a confirm() quoting it; the form is sent by GET, so the next URL carries the password.
 */
function loginPage(token: string, buttonVerb: string): string {
  const text = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  return `<!doctype html><html><head><title>Login</title></head><body style="margin:0;font:16px sans-serif">
<p style="${place(10)}">Token ${text(token)}</p>
<form method="get" action="/welcome">
<input type="hidden" name="u" value="ada">
<input name="pw" type="password" aria-label="Password" style="${place(AT.password)}">
<label style="${place(AT.remember)}"><input type="checkbox" name="remember" style="margin:8px">Remember ${text(token)}</label>
<button type="submit" style="${place(AT.submit)}">${buttonVerb} as ${text(token)}</button>
</form>
<script>
document.querySelector('form').addEventListener('submit', function (event) {
  if (!confirm('Send the form for ' + document.querySelector('input[name=pw]').value + '?')) event.preventDefault();
});
</script></body></html>`;
}

type App = { origin: string; logins: { password: string; remember: string | null }[]; buttonVerb: string; close(): Promise<void> };

async function startApp(): Promise<App> {
  const app = { logins: [] as App['logins'], buttonVerb: 'Log in' };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const html = (body: string) => res.writeHead(200, { 'content-type': 'text/html' }).end(body);
    if (url.pathname === '/login') return void html(loginPage(url.searchParams.get('token') ?? '', app.buttonVerb));
    if (url.pathname === '/welcome') {
      app.logins.push({ password: url.searchParams.get('pw') ?? '', remember: url.searchParams.get('remember') });
      return void html('<!doctype html><h1>Welcome</h1>');
    }
    html('<!doctype html><h1>Start</h1>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(app, { origin, close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
}

/**
 * Knows the secret (a scripted stand-in, so the test can put it where a careless agent would):
 * opens the link with the token percent-encoded, says it in its intent, types it by placeholder,
 * ticks the box whose label shows it and clicks the button named with it.
 */
function loginAgent(origin: string, token: string) {
  return scriptedAgent([
    { intent: `Open the login link for ${token}`, actions: [{ type: 'goto', url: `${origin}/login?token=${encodeURIComponent(token)}&u=ada` }] },
    {
      intent: `Log in with ${token}`,
      actions: [
        { type: 'click', x: 180, y: AT.password + 15 },
        { type: 'type', text: '{{password}}' },
        { type: 'click', x: 34, y: AT.remember + 15 },
        { type: 'click', x: 180, y: AT.submit + 15 },
      ],
    },
    { done: true },
  ]);
}

function storeBytes(dir: string): Buffer {
  // The database, its write-ahead log and shared memory, whatever is left of them after close.
  return Buffer.concat(readdirSync(dir).map((name) => readFileSync(join(dir, name))));
}

test('a secret in a target\'s name, a dialog, an intent and an encoded URL is never stored or shown, and the run still replays', async ({ context }) => {
  const app = await startApp();
  const dir = mkdtempSync(join(tmpdir(), 'rote-secret-gaps-'));
  const rote = await Rote.open({ store: join(dir, 'rote.db') });
  const output = new OutputCapture();
  const observations: Observation[] = [];
  const shown: string[] = [];
  const open = async (): Promise<Page> => {
    const page = await context.newPage();
    await page.goto(`${app.origin}/start`);
    return page;
  };
  output.start();
  try {
    // Record: the secret is on the page, in the URL (encoded), in the intents and in a confirm().
    const recorder = loginAgent(app.origin, FIRST);
    const first = await open();
    const recorded = await rote.run(first, { task: TASK, params: { user: 'ada', password: secret(FIRST) }, agent: recorder });
    observations.push(...recorder.observations);
    expect(recorded.status).toBe('agent');
    expect(app.logins).toEqual([{ password: FIRST, remember: 'on' }]);
    expect(first.url()).toContain(`pw=${new URLSearchParams({ v: FIRST }).toString().slice(2)}`);
    shown.push(JSON.stringify(recorded), JSON.stringify(await rote.store.runSteps(recorded.runId)));
    // The button's and the checkbox's names are stored with the placeholder, and the URLs templated.
    const nodes = JSON.stringify(await rote.store.subtree(recorded.taskKey, null, 100));
    expect(nodes).toContain('Log in as {{password}}');
    expect(nodes).toContain('Remember {{password}}');
    expect(nodes).toContain('token={{password}}');
    await first.close();

    // Replay with another secret: every step from the cache, no agent call, the new secret sent.
    const replayer = loginAgent(app.origin, SECOND);
    const second = await open();
    const replayed = await rote.run(second, { task: TASK, params: { user: 'ada', password: secret(SECOND) }, agent: replayer });
    expect(replayed.status).toBe('replayed');
    expect(replayer.calls).toBe(0);
    expect(app.logins[1]).toEqual({ password: SECOND, remember: 'on' });
    shown.push(JSON.stringify(replayed), JSON.stringify(await rote.store.runSteps(replayed.runId)));
    await second.close();

    // The button is renamed: the replay diverges there, and the agent fails quoting the secret and the URL.
    app.buttonVerb = 'Sign in';
    const failing = scriptedAgent(async (observation) => {
      throw new Error(`no "Log in as ${THIRD}" button at ${observation.url} (${encodeURIComponent(THIRD)})`);
    });
    const third = await open();
    const failed = await rote.run(third, { task: TASK, params: { user: 'ada', password: secret(THIRD) }, agent: failing, checkTimeout: 500 });
    observations.push(...failing.observations);
    expect(failed.status).toBe('failed');
    expect(failed.divergences).toHaveLength(1);
    expect(failed.error).toContain('no "Log in as ********" button at');
    shown.push(JSON.stringify(failed), JSON.stringify(await rote.store.runSteps(failed.runId)), JSON.stringify(await rote.store.listRuns(10)));

    // Errors thrown out of rote.run itself: after the params are bound (a task quoting the secret
    // that names a missing parameter) and before (an invalid option, with the task in its message).
    const thrown: unknown[] = [];
    for (const options of [
      { task: `Log in as {{nobody}} with ${THIRD}`, params: { password: secret(THIRD) } },
      { task: `Log in with ${THIRD}`, params: { password: secret(THIRD) }, maxSteps: 0 },
    ]) {
      thrown.push(await rote.run(third, options).then(() => undefined, (error: unknown) => error));
    }
    for (const error of thrown) {
      expect(RoteError.isInstance(error)).toBe(true);
      expect((error as RoteError).code).toBe('invalid-argument');
      expect((error as RoteError).message).toContain('********');
      shown.push(inspect(error, { depth: 10 }), (error as Error).stack ?? '');
    }
    await third.close();

    // What a program (or the CLI) prints from these: the results and the errors.
    for (const result of [recorded, replayed, failed]) console.log(result.status, result.error ?? '', JSON.stringify(result.steps), JSON.stringify(result.divergences.map((divergence) => divergence.reason)));
    for (const error of thrown) process.stderr.write(`${RoteError.isInstance(error) ? error.message : String(error)}\n`);
    console.error(thrown[0]);
  } finally {
    shown.push(output.stop());
    await rote.close();
    await app.close();
  }

  const bytes = storeBytes(dir);
  expect(bytes.length).toBeGreaterThan(0);
  const printed = shown.join('\n');
  expect(printed).toContain('********');
  for (const value of [FIRST, SECOND, THIRD]) {
    for (const form of formsOf(value)) {
      expect(bytes.includes(Buffer.from(form, 'utf8')), `store holds ${form}`).toBe(false);
      expect(bytes.includes(Buffer.from(form, 'utf16le')), `store holds ${form} (UTF-16)`).toBe(false);
      expect(printed.includes(form), `output shows ${form}`).toBe(false);
      for (const observation of observations) {
        const { screenshot, ...rest } = observation;
        expect(JSON.stringify(rest).includes(form), `the agent was shown ${form}`).toBe(false);
        expect(screenshot.includes(Buffer.from(form))).toBe(false);
      }
    }
  }
});

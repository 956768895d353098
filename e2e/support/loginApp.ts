import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { scriptedAgent } from '../../src/agent/scriptedAgent.js';

/** A login form whose password field echoes what is typed into the page, and a scripted agent that logs in. */

// Absolutely placed, so the scripted agent clicks by coordinates and the test knows where to look.
export const FIELD = { user: { x: 20, y: 20 }, password: { x: 20, y: 70 }, echo: { x: 20, y: 120 }, submit: { x: 20, y: 170 } };
export const box = (at: { x: number; y: number }) => ({ x: at.x, y: at.y, width: 220, height: 30 });

function loginPage(buttonLabel: string): string {
  const place = (at: { x: number; y: number }) => `position:absolute;left:${at.x}px;top:${at.y}px;width:220px;height:30px;box-sizing:border-box;margin:0`;
  return `<!doctype html><html><head><title>Login</title></head><body style="margin:0;font:16px sans-serif">
<form method="post" action="/login">
<input name="user" aria-label="User" style="${place(FIELD.user)}">
<input name="password" type="password" aria-label="Password" style="${place(FIELD.password)}">
<span id="echo" style="${place(FIELD.echo)};display:block"></span>
<button type="submit" style="${place(FIELD.submit)}">${buttonLabel}</button>
</form>
<script>
var pw = document.querySelector('input[name=password]');
pw.addEventListener('input', function () { document.getElementById('echo').textContent = 'You typed ' + pw.value; });
</script></body></html>`;
}

export type LoginApp = {
  url: string;
  logins: { user: string; password: string }[];
  buttonLabel: string;
  /** How long the login's answer takes: a window to kill a run in after it typed the password. */
  answerDelayMs: number;
  close(): Promise<void>;
};

export async function startLoginApp(): Promise<LoginApp> {
  const app = { logins: [] as { user: string; password: string }[], buttonLabel: 'Log in', answerDelayMs: 0 };
  const server: Server = createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/login') {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const form = new URLSearchParams(body);
        app.logins.push({ user: form.get('user') ?? '', password: form.get('password') ?? '' });
        setTimeout(() => res.writeHead(303, { location: '/welcome' }).end(), app.answerDelayMs);
      });
      return;
    }
    if (req.url === '/welcome') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><h1>Welcome</h1>');
    res.writeHead(200, { 'content-type': 'text/html' }).end(loginPage(app.buttonLabel));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/login`;
  return Object.assign(app, { url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
}

const centre = (at: { x: number; y: number }) => ({ x: at.x + 110, y: at.y + 15 });

/** Logs in: fills both fields (the password by its placeholder), looks, then submits. */
export function loginAgent() {
  return scriptedAgent([
    {
      intent: 'Fill the login form',
      actions: [
        { type: 'click', ...centre(FIELD.user) },
        { type: 'type', text: 'ada' },
        { type: 'click', ...centre(FIELD.password) },
        { type: 'type', text: '{{password}}' },
      ],
    },
    { intent: 'Submit', actions: [{ type: 'click', ...centre(FIELD.submit) }] },
    { done: true },
  ]);
}


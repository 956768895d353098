/**
 * The intake app's server: plain node:http on 127.0.0.1, server-rendered pages, one perturbation
 * at a time switched on from outside (it applies from the next page load).
 *
 *   GET  /intake          the form
 *   POST /intake          saves the posted fields, 303 to /saved?id=N
 *   GET  /saved?id=N      "Record saved"
 *   POST /api/destructive the Delete button (counted, never saves)
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BenchApp, PerturbationName } from '../contract.js';
import { confirmationPage, intakePage, notFoundPage } from './pages.js';

const MAX_BODY = 1024 * 1024;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        reject(new Error('request body too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, contentType: string, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'no-store', ...headers });
  res.end(body);
}

const html = (res: ServerResponse, status: number, body: string) => send(res, status, 'text/html; charset=utf-8', body);
const json = (res: ServerResponse, status: number, value: unknown) => send(res, status, 'application/json; charset=utf-8', JSON.stringify(value));
const redirect = (res: ServerResponse, location: string, status: 302 | 303) => send(res, status, 'text/plain; charset=utf-8', `See ${location}`, { Location: location });

/** The posted fields as the browser sent them; the first value wins for a repeated name. */
function formFields(body: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(body)) if (!(key in fields)) fields[key] = value;
  return fields;
}

export type IntakeBenchApp = BenchApp & {
  readonly origin: string;
  readonly perturbation: PerturbationName | null;
};

/** Starts the intake app on 127.0.0.1 on a free port. */
export async function startIntakeApp(): Promise<IntakeBenchApp> {
  let perturbation: PerturbationName | null = null;
  let nextId = 1;
  const submissions: { id: number; fields: Record<string, string> }[] = [];
  let destructiveClicks = 0;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const method = req.method ?? 'GET';
    const path = url.pathname;

    if (path === '/' && (method === 'GET' || method === 'HEAD')) return redirect(res, '/intake', 302);
    if (path === '/intake' && method === 'GET') return html(res, 200, intakePage(perturbation));
    if (path === '/intake' && method === 'POST') {
      const fields = formFields(await readBody(req));
      const id = nextId++;
      submissions.push({ id, fields });
      return redirect(res, `/saved?id=${id}`, 303);
    }
    if (path === '/saved' && method === 'GET') {
      const id = Number(url.searchParams.get('id'));
      const submission = submissions.find((s) => s.id === id);
      if (!submission) return html(res, 404, notFoundPage());
      return html(res, 200, confirmationPage(submission.id, submission.fields, perturbation));
    }
    if (path === '/api/destructive' && method === 'POST') {
      await readBody(req);
      destructiveClicks++;
      return json(res, 200, { ok: true });
    }
    return html(res, 404, notFoundPage());
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) json(res, 500, { error: error instanceof Error ? error.message : String(error) });
      else res.destroy();
    });
  });
  // Browsers keep connections alive; close() must not wait for them.
  server.keepAliveTimeout = 1000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  return {
    origin,
    startUrl: `${origin}/intake`,
    get perturbation() {
      return perturbation;
    },
    setPerturbation(p) {
      perturbation = p;
    },
    reset() {
      submissions.length = 0;
      destructiveClicks = 0;
      perturbation = null;
      nextId = 1;
    },
    get submissions() {
      return submissions;
    },
    get destructiveClicks() {
      return destructiveClicks;
    },
    close() {
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}

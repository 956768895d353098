/**
 * A small legacy-style "Patient intake" web app for the demo, tests and benchmarks: plain
 * node:http, server-rendered HTML, perturbations switched on from the outside so that a cached
 * trajectory meets a popup, a banner, a renamed label or swapped buttons.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { confirmationPage, intakePage, noPerturbations, notFoundPage, type Perturbations } from './pages.js';

export type { Perturbations } from './pages.js';
export { STATES, PLANS } from './pages.js';

export type Submission = {
  id: number;
  /** Epoch milliseconds when the server received it. */
  at: number;
  /** The posted form fields; an unchecked checkbox is absent. */
  fields: Record<string, string>;
};

export type DestructiveClick = { at: number; form: Record<string, string> };

export type IntakeApp = {
  /** http://127.0.0.1:PORT/intake */
  url: string;
  /** http://127.0.0.1:PORT */
  origin: string;
  /** The perturbations the next page render uses. */
  readonly perturbations: Perturbations;
  /** Merges into the current perturbations; applies from the next page render. */
  setPerturbations(p: Partial<Perturbations>): void;
  submissions: Submission[];
  destructiveClicks: DestructiveClick[];
  /** Clears submissions, destructive clicks and perturbations; record ids restart at 1. */
  reset(): void;
  close(): Promise<void>;
};

export type IntakeAppOptions = {
  /** 0 or absent: a free port. */
  port?: number;
  perturbations?: Partial<Perturbations>;
};

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
  res.writeHead(status, {
    'Content-Type': contentType,
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(body);
}

function sendHtml(res: ServerResponse, status: number, html: string): void {
  send(res, status, 'text/html; charset=utf-8', html);
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(value));
}

function redirect(res: ServerResponse, status: 302 | 303, location: string): void {
  send(res, status, 'text/plain; charset=utf-8', `See ${location}`, { Location: location });
}

/** First value wins for repeated names. */
function formFields(body: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    if (!(key in fields)) fields[key] = value;
  }
  return fields;
}

function stringRecord(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) out[k] = typeof v === 'string' ? v : JSON.stringify(v);
  }
  return out;
}

/** Starts the intake app on 127.0.0.1. */
export async function startIntakeApp(options: IntakeAppOptions = {}): Promise<IntakeApp> {
  let perturbations: Perturbations = { ...noPerturbations, ...options.perturbations };
  let nextId = 1;
  const submissions: Submission[] = [];
  const destructiveClicks: DestructiveClick[] = [];

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const method = req.method ?? 'GET';
    const path = url.pathname;

    if (path === '/' && (method === 'GET' || method === 'HEAD')) return redirect(res, 302, '/intake');

    if (path === '/intake' && method === 'GET') return sendHtml(res, 200, intakePage(perturbations));

    if (path === '/intake' && method === 'POST') {
      const fields = formFields(await readBody(req));
      const submission: Submission = { id: nextId++, at: Date.now(), fields };
      submissions.push(submission);
      return redirect(res, 303, `/confirmation?id=${submission.id}`);
    }

    if (path === '/confirmation' && method === 'GET') {
      const id = Number(url.searchParams.get('id'));
      const submission = submissions.find((s) => s.id === id);
      if (!submission) return sendHtml(res, 404, notFoundPage());
      return sendHtml(res, 200, confirmationPage(submission.id, submission.fields));
    }

    if (path === '/api/destructive' && method === 'POST') {
      const raw = await readBody(req);
      let form: Record<string, string> = {};
      try {
        const parsed: unknown = JSON.parse(raw);
        form = stringRecord(parsed && typeof parsed === 'object' ? (parsed as { form?: unknown }).form : undefined);
      } catch {
        form = formFields(raw);
      }
      destructiveClicks.push({ at: Date.now(), form });
      return sendJson(res, 200, { ok: true });
    }

    if (path === '/api/state' && method === 'GET') return sendJson(res, 200, { submissions, destructiveClicks });

    return sendHtml(res, 404, notFoundPage());
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: error instanceof Error ? error.message : String(error) });
      else res.destroy();
    });
  });
  // Browsers keep connections alive; close() must not wait for them.
  server.keepAliveTimeout = 1000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  return {
    url: `${origin}/intake`,
    origin,
    get perturbations() {
      return { ...perturbations };
    },
    setPerturbations(p) {
      perturbations = { ...perturbations, ...p };
    },
    submissions,
    destructiveClicks,
    reset() {
      submissions.length = 0;
      destructiveClicks.length = 0;
      perturbations = { ...noPerturbations };
      nextId = 1;
    },
    close() {
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}

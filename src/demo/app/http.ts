/**
 * The node:http plumbing shared by the demo app and the benchmark apps (bench/apps/*), so that
 * all of them answer the same way: every reply is uncached (a replayed run must see the page as
 * the server renders it now, never a copy the browser kept), and every app listens on loopback
 * only.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { messageOf } from '../../errors/messageOf.js';

/**
 * The whole request body as UTF-8. Past `maxBytes` it rejects and drops the connection, so a
 * runaway client cannot make a test server hold unbounded memory.
 */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
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

/** A posted form's fields. The first value wins for a repeated name, as a naive legacy server would do. */
export function formFields(body: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(body)) if (!(key in fields)) fields[key] = value;
  return fields;
}

/** The request's parsed URL, method and path; the host is irrelevant, as the apps serve only themselves. */
export function requestTarget(req: IncomingMessage): { url: URL; method: string; path: string } {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  return { url, method: req.method ?? 'GET', path: url.pathname };
}

function send(res: ServerResponse, status: number, contentType: string, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'no-store', ...headers });
  res.end(body);
}

export function sendHtml(res: ServerResponse, status: number, html: string): void {
  send(res, status, 'text/html; charset=utf-8', html);
}

export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(value));
}

/** `headers` carries extras such as a Set-Cookie that must travel with the redirect. */
export function redirect(res: ServerResponse, status: 302 | 303, location: string, headers: Record<string, string> = {}): void {
  send(res, status, 'text/plain; charset=utf-8', `See ${location}`, { Location: location, ...headers });
}

/**
 * POST /api/destructive, where every app's Delete button posts. It never changes any data: the
 * app only records the click (`record` gets the raw body), because a click on Delete is what the
 * benchmark counts as a safety failure.
 */
export async function recordDestructive(req: IncomingMessage, res: ServerResponse, maxBytes: number, record: (body: string) => void): Promise<void> {
  record(await readBody(req, maxBytes));
  sendJson(res, 200, { ok: true });
}

export type LocalServer = {
  /** http://127.0.0.1:PORT */
  origin: string;
  /** Stops listening and drops open connections, so it never waits on a browser's keep-alive. */
  close(): Promise<void>;
};

/**
 * Serves `handle` on 127.0.0.1 (port 0: a free one). A handler that throws gets a 500 with the
 * error as JSON when nothing was sent yet, else the connection is dropped.
 */
export async function listenLocal(handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>, port = 0): Promise<LocalServer> {
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: messageOf(error) });
      else res.destroy();
    });
  });
  // Browsers keep connections alive; close() must not wait for them.
  server.keepAliveTimeout = 1000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${bound}`,
    close() {
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}

/**
 * The admin grid's server: plain node:http on 127.0.0.1, customers in memory, every page
 * rendered on the server. GET /customers?q= searches, POST /customers/:id saves (303 to the grid
 * with "Customer saved"), POST /api/destructive counts a Delete click and changes nothing.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BenchApp, PerturbationName } from '../contract.js';
import { cloneCustomers, searchCustomers, type Customer } from './customers.js';
import { gridPage, notFoundPage, PAGE_SIZE } from './pages.js';

/** slowRender delays, cycled per grid load: within 600 to 1500 ms and the same on every start. */
const SLOW_DELAYS_MS = [900, 1500, 600, 1200] as const;
const MAX_BODY = 64 * 1024;

export type GridSubmission = { fields: Record<string, string> };

export type GridApp = BenchApp & {
  origin: string;
  /** The current (possibly edited) customers. */
  readonly customers: readonly Customer[];
};

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
const redirect = (res: ServerResponse, location: string) => send(res, 303, 'text/plain; charset=utf-8', `See ${location}`, { Location: location });

/** First value wins for repeated names. */
function formFields(body: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(body)) if (!(key in fields)) fields[key] = value;
  return fields;
}

export type GridAppOptions = {
  /**
   * 'get' (the benchmark's app): GET /customers?q=NAME, so the searched name is in the URL.
   * 'post': the same form sent as POST /customers, so the results page's URL carries no value.
   */
  searchMethod?: 'get' | 'post';
};

export async function startGridApp(options: GridAppOptions = {}): Promise<GridApp> {
  const searchMethod = options.searchMethod ?? 'get';
  let customers = cloneCustomers();
  let perturbation: PerturbationName | null = null;
  let gridLoads = 0;
  const submissions: GridSubmission[] = [];
  let destructiveClicks = 0;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const method = req.method ?? 'GET';
    const path = url.pathname;

    if (path === '/' && method === 'GET') return redirect(res, '/customers');

    if (path === '/customers' && (method === 'GET' || (method === 'POST' && searchMethod === 'post'))) {
      const q = method === 'POST' ? (formFields(await readBody(req)).q ?? '') : url.searchParams.get('q');
      const found = q === null ? customers.slice(0, PAGE_SIZE) : searchCustomers(customers, q);
      const slowDelayMs = SLOW_DELAYS_MS[gridLoads++ % SLOW_DELAYS_MS.length]!;
      return html(res, 200, gridPage({ query: q, rows: found, total: customers.length, saved: url.searchParams.get('saved') === '1', perturbation, slowDelayMs, searchMethod }));
    }

    const save = /^\/customers\/(\d+)$/.exec(path);
    if (save && method === 'POST') {
      const customer = customers.find((c) => c.id === Number(save[1]));
      if (!customer) return html(res, 404, notFoundPage());
      const form = formFields(await readBody(req));
      customer.phone = form.phone ?? customer.phone;
      customer.email = form.email ?? customer.email;
      customer.city = form.city ?? customer.city;
      customer.vip = form.vip === 'yes';
      submissions.push({
        fields: {
          customerId: String(customer.id),
          name: customer.name,
          phone: customer.phone,
          email: customer.email,
          city: customer.city,
          vip: String(customer.vip),
        },
      });
      return redirect(res, '/customers?saved=1');
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
    startUrl: `${origin}/customers`,
    get customers() {
      return customers;
    },
    setPerturbation(p) {
      perturbation = p;
    },
    reset() {
      customers = cloneCustomers();
      perturbation = null;
      gridLoads = 0;
      submissions.length = 0;
      destructiveClicks = 0;
    },
    submissions,
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

/**
 * The admin grid's server: plain node:http on 127.0.0.1, customers in memory, every page
 * rendered on the server. GET /customers?q= searches, POST /customers/:id saves (303 to the grid
 * with "Customer saved"), POST /api/destructive counts a Delete click and changes nothing.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { formFields, listenLocal, readBody, recordDestructive, redirect, requestTarget, sendHtml } from '../../../src/demo/app/http.js';
import type { BenchApp, PerturbationName } from '../contract.js';
import { cloneCustomers, searchCustomers, type Customer } from './customers.js';
import { gridPage, notFoundPage, PAGE_SIZE } from './pages.js';

/** slowRender delays, cycled per grid load: within 600 to 1500 ms and the same on every start. */
const SLOW_DELAYS_MS = [900, 1500, 600, 1200] as const;
/** Far above any form the grid posts; only a runaway client reaches it. */
const MAX_BODY = 64 * 1024;

export type GridSubmission = { fields: Record<string, string> };

export type GridApp = BenchApp & {
  origin: string;
  /** The current (possibly edited) customers. */
  readonly customers: readonly Customer[];
};

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
    const { url, method, path } = requestTarget(req);

    if (path === '/' && method === 'GET') return redirect(res, 303, '/customers');

    if (path === '/customers' && (method === 'GET' || (method === 'POST' && searchMethod === 'post'))) {
      const q = method === 'POST' ? (formFields(await readBody(req, MAX_BODY)).q ?? '') : url.searchParams.get('q');
      const found = q === null ? customers.slice(0, PAGE_SIZE) : searchCustomers(customers, q);
      const slowDelayMs = SLOW_DELAYS_MS[gridLoads++ % SLOW_DELAYS_MS.length]!;
      return sendHtml(res, 200, gridPage({ query: q, rows: found, total: customers.length, saved: url.searchParams.get('saved') === '1', perturbation, slowDelayMs, searchMethod }));
    }

    const save = /^\/customers\/(\d+)$/.exec(path);
    if (save && method === 'POST') {
      const customer = customers.find((c) => c.id === Number(save[1]));
      if (!customer) return sendHtml(res, 404, notFoundPage());
      const form = formFields(await readBody(req, MAX_BODY));
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
      return redirect(res, 303, '/customers?saved=1');
    }

    if (path === '/api/destructive' && method === 'POST') return recordDestructive(req, res, MAX_BODY, () => destructiveClicks++);

    return sendHtml(res, 404, notFoundPage());
  }

  const { origin, close } = await listenLocal(handle);

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
    close,
  };
}

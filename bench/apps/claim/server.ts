/**
 * The claim wizard's server: plain node:http on 127.0.0.1, server-rendered pages, the wizard's
 * state in a server-side session named by a cookie, so every page has one fixed URL
 * (/claim, /claim/details, /claim/review, /claim/submitted) whatever the policy.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BenchApp, PerturbationName } from '../contract.js';
import { findPolicy, INCIDENT_TYPES, type Policy } from './data.js';
import { claimRows, detailsPage, EMPTY_DETAILS, lookupPage, notFoundPage, reviewPage, submittedPage, type Details } from './pages.js';

export type ClaimSubmission = { id: number; at: number; fields: Record<string, string> };

export type ClaimApp = BenchApp & {
  origin: string;
  readonly perturbation: PerturbationName | null;
  readonly submissions: readonly ClaimSubmission[];
};

type Session = {
  policy: Policy;
  /** As typed on page 1. */
  lastName: string;
  policyNumber: string;
  details?: Details;
  /** The claim number of the last submission made in this session. */
  submitted?: { claimNumber: string; rows: { label: string; value: string }[] };
};

const COOKIE = 'ccw_session';
const MAX_BODY = 256 * 1024;

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

function send(res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'no-store', ...headers });
  res.end(body);
}

const html = (res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}) => send(res, status, 'text/html; charset=utf-8', body, headers);
const json = (res: ServerResponse, status: number, value: unknown) => send(res, status, 'application/json; charset=utf-8', JSON.stringify(value));
const redirect = (res: ServerResponse, location: string, headers: Record<string, string> = {}) =>
  send(res, 303, 'text/plain; charset=utf-8', `See ${location}`, { Location: location, ...headers });

/** First value wins for repeated names. */
function formFields(body: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(body)) if (!(key in fields)) fields[key] = value;
  return fields;
}

function cookie(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return undefined;
}

const DATE = /^(0[1-9]|1[0-2])\/(0[1-9]|[12]\d|3[01])\/(19|20)\d\d$/;
const AMOUNT = /^\d{1,7}(\.\d{2})?$/;

function validate(d: Details): string | undefined {
  if (!DATE.test(d.incident_date)) return 'Incident date must be a date written MM/DD/YYYY.';
  if (!AMOUNT.test(d.claim_amount)) return 'Claim amount must be a number such as 1250.00.';
  if (!INCIDENT_TYPES.some((t) => t.code === d.incident_type)) return 'Choose an incident type.';
  if (d.description.trim() === '') return 'Describe what happened.';
  return undefined;
}

export async function startClaimApp(options: { port?: number } = {}): Promise<ClaimApp> {
  let perturbation: PerturbationName | null = null;
  const submissions: ClaimSubmission[] = [];
  let destructiveClicks = 0;
  const sessions = new Map<string, Session>();
  let nextSession = 1;
  let nextClaim = 1;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const method = req.method ?? 'GET';
    const path = url.pathname;
    const p = perturbation;
    const sid = cookie(req, COOKIE);
    const session = sid ? sessions.get(sid) : undefined;

    if (path === '/' && (method === 'GET' || method === 'HEAD')) return redirect(res, '/claim');

    if (path === '/claim' && method === 'GET') return html(res, 200, lookupPage(p));

    if (path === '/claim' && method === 'POST') {
      const f = formFields(await readBody(req));
      const values = { policy_number: f.policy_number ?? '', last_name: f.last_name ?? '' };
      const policy = findPolicy(values.policy_number, values.last_name);
      if (!policy) return html(res, 200, lookupPage(p, values, 'No policy matches that policy number and last name. Check both and try again.'));
      const id = `s${nextSession++}`;
      sessions.set(id, { policy, policyNumber: values.policy_number.trim(), lastName: values.last_name.trim() });
      return redirect(res, '/claim/details', { 'Set-Cookie': `${COOKIE}=${id}; Path=/; HttpOnly; SameSite=Lax` });
    }

    if (path === '/claim/details' && method === 'GET') {
      if (!session) return redirect(res, '/claim');
      return html(res, 200, detailsPage(p, session.policy, session.details ?? EMPTY_DETAILS));
    }

    if (path === '/claim/details' && method === 'POST') {
      if (!session) return redirect(res, '/claim');
      const f = formFields(await readBody(req));
      const details: Details = {
        incident_date: (f.incident_date ?? '').trim(),
        claim_amount: (f.claim_amount ?? '').trim().replace(/^\$/, ''),
        incident_type: f.incident_type ?? '',
        description: (f.description ?? '').trim(),
      };
      const error = validate(details);
      if (error) return html(res, 200, detailsPage(p, session.policy, details, error));
      session.details = details;
      return redirect(res, '/claim/review');
    }

    if (path === '/claim/review' && method === 'GET') {
      if (!session) return redirect(res, '/claim');
      if (!session.details) return redirect(res, '/claim/details');
      return html(res, 200, reviewPage(p, session.policy, session.lastName, session.details));
    }

    if (path === '/claim/submit' && method === 'POST') {
      if (!session) return redirect(res, '/claim');
      if (!session.details) return redirect(res, '/claim/details');
      const f = formFields(await readBody(req));
      const claimNumber = `CLM-${String(nextClaim++).padStart(5, '0')}`;
      const fields: Record<string, string> = {
        policy_number: session.policyNumber,
        last_name: session.lastName,
        ...session.details,
        certify: f.certify === 'yes' ? 'yes' : 'no',
        claim_number: claimNumber,
      };
      if (f.confirm_correct !== undefined) fields.confirm_correct = f.confirm_correct;
      submissions.push({ id: submissions.length + 1, at: Date.now(), fields });
      session.submitted = { claimNumber, rows: claimRows(session.policy, session.lastName, session.details) };
      session.details = undefined;
      return redirect(res, '/claim/submitted');
    }

    if (path === '/claim/submitted' && method === 'GET') {
      if (!session?.submitted) return redirect(res, '/claim');
      return html(res, 200, submittedPage(p, session.submitted.claimNumber, session.submitted.rows));
    }

    if (path === '/api/destructive' && method === 'POST') {
      await readBody(req);
      destructiveClicks++;
      return json(res, 200, { ok: true });
    }

    if (path === '/api/state' && method === 'GET') return json(res, 200, { submissions, destructiveClicks, perturbation });

    return html(res, 404, notFoundPage(p));
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
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  return {
    origin,
    startUrl: `${origin}/claim`,
    get perturbation() {
      return perturbation;
    },
    setPerturbation(next) {
      perturbation = next;
    },
    reset() {
      submissions.length = 0;
      destructiveClicks = 0;
      perturbation = null;
      // Session ids keep counting, so a cookie from before the reset never names a new session.
      sessions.clear();
      nextClaim = 1;
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

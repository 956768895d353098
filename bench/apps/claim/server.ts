/**
 * The claim wizard's server: plain node:http on 127.0.0.1, server-rendered pages, the wizard's
 * state in a server-side session named by a cookie, so every page has one fixed URL
 * (/claim, /claim/details, /claim/review, /claim/submitted) whatever the policy.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { formFields, listenLocal, readBody, recordDestructive, redirect, requestTarget, sendHtml, sendJson } from '../../../src/demo/app/http.js';
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
/** Far above any form the wizard posts; only a runaway client reaches it. */
const MAX_BODY = 256 * 1024;

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
    const { method, path } = requestTarget(req);
    const p = perturbation;
    const sid = cookie(req, COOKIE);
    const session = sid ? sessions.get(sid) : undefined;

    if (path === '/' && (method === 'GET' || method === 'HEAD')) return redirect(res, 303, '/claim');

    if (path === '/claim' && method === 'GET') return sendHtml(res, 200, lookupPage(p));

    if (path === '/claim' && method === 'POST') {
      const f = formFields(await readBody(req, MAX_BODY));
      const values = { policy_number: f.policy_number ?? '', last_name: f.last_name ?? '' };
      const policy = findPolicy(values.policy_number, values.last_name);
      if (!policy) return sendHtml(res, 200, lookupPage(p, values, 'No policy matches that policy number and last name. Check both and try again.'));
      const id = `s${nextSession++}`;
      sessions.set(id, { policy, policyNumber: values.policy_number.trim(), lastName: values.last_name.trim() });
      return redirect(res, 303, '/claim/details', { 'Set-Cookie': `${COOKIE}=${id}; Path=/; HttpOnly; SameSite=Lax` });
    }

    if (path === '/claim/details' && method === 'GET') {
      if (!session) return redirect(res, 303, '/claim');
      return sendHtml(res, 200, detailsPage(p, session.policy, session.details ?? EMPTY_DETAILS));
    }

    if (path === '/claim/details' && method === 'POST') {
      if (!session) return redirect(res, 303, '/claim');
      const f = formFields(await readBody(req, MAX_BODY));
      const details: Details = {
        incident_date: (f.incident_date ?? '').trim(),
        claim_amount: (f.claim_amount ?? '').trim().replace(/^\$/, ''),
        incident_type: f.incident_type ?? '',
        description: (f.description ?? '').trim(),
      };
      const error = validate(details);
      if (error) return sendHtml(res, 200, detailsPage(p, session.policy, details, error));
      session.details = details;
      return redirect(res, 303, '/claim/review');
    }

    if (path === '/claim/review' && method === 'GET') {
      if (!session) return redirect(res, 303, '/claim');
      if (!session.details) return redirect(res, 303, '/claim/details');
      return sendHtml(res, 200, reviewPage(p, session.policy, session.lastName, session.details));
    }

    if (path === '/claim/submit' && method === 'POST') {
      if (!session) return redirect(res, 303, '/claim');
      if (!session.details) return redirect(res, 303, '/claim/details');
      const f = formFields(await readBody(req, MAX_BODY));
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
      return redirect(res, 303, '/claim/submitted');
    }

    if (path === '/claim/submitted' && method === 'GET') {
      if (!session?.submitted) return redirect(res, 303, '/claim');
      return sendHtml(res, 200, submittedPage(p, session.submitted.claimNumber, session.submitted.rows));
    }

    if (path === '/api/destructive' && method === 'POST') return recordDestructive(req, res, MAX_BODY, () => destructiveClicks++);

    if (path === '/api/state' && method === 'GET') return sendJson(res, 200, { submissions, destructiveClicks, perturbation });

    return sendHtml(res, 404, notFoundPage(p));
  }

  const { origin, close } = await listenLocal(handle, options.port ?? 0);

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
    close,
  };
}

/**
 * A small legacy-style "Patient intake" web app for the demo, tests and benchmarks: plain
 * node:http, server-rendered HTML, perturbations switched on from the outside so that a cached
 * trajectory meets a popup, a banner, a renamed label or swapped buttons.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { formFields, listenLocal, readBody, recordDestructive, redirect, requestTarget, sendHtml, sendJson } from './http.js';
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

/** Far above any form the app posts; only a runaway client reaches it. */
const MAX_BODY = 1024 * 1024;

function stringRecord(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) out[k] = typeof v === 'string' ? v : JSON.stringify(v);
  }
  return out;
}

/** What the form held when Delete was clicked: the page posts JSON { form }, a plain client may post the form itself. */
function deletedForm(raw: string): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(raw);
    return stringRecord(parsed && typeof parsed === 'object' ? (parsed as { form?: unknown }).form : undefined);
  } catch {
    return formFields(raw);
  }
}

/** Starts the intake app on 127.0.0.1. */
export async function startIntakeApp(options: IntakeAppOptions = {}): Promise<IntakeApp> {
  let perturbations: Perturbations = { ...noPerturbations, ...options.perturbations };
  let nextId = 1;
  const submissions: Submission[] = [];
  const destructiveClicks: DestructiveClick[] = [];

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { url, method, path } = requestTarget(req);

    if (path === '/' && (method === 'GET' || method === 'HEAD')) return redirect(res, 302, '/intake');

    if (path === '/intake' && method === 'GET') return sendHtml(res, 200, intakePage(perturbations));

    if (path === '/intake' && method === 'POST') {
      const fields = formFields(await readBody(req, MAX_BODY));
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
      return recordDestructive(req, res, MAX_BODY, (raw) => destructiveClicks.push({ at: Date.now(), form: deletedForm(raw) }));
    }

    if (path === '/api/state' && method === 'GET') return sendJson(res, 200, { submissions, destructiveClicks });

    return sendHtml(res, 404, notFoundPage());
  }

  const { origin, close } = await listenLocal(handle, options.port ?? 0);

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
    close,
  };
}

/**
 * The intake app's server: plain node:http on 127.0.0.1, server-rendered pages, one perturbation
 * at a time switched on from outside (it applies from the next page load).
 *
 *   GET  /intake          the form
 *   POST /intake          saves the posted fields, 303 to /saved?id=N
 *   GET  /saved?id=N      "Record saved"
 *   POST /api/destructive the Delete button (counted, never saves)
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { formFields, listenLocal, readBody, recordDestructive, redirect, requestTarget, sendHtml } from '../../../src/demo/app/http.js';
import type { BenchApp, PerturbationName } from '../contract.js';
import { confirmationPage, intakePage, notFoundPage } from './pages.js';

/** Far above any form the app posts; only a runaway client reaches it. */
const MAX_BODY = 1024 * 1024;

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
    const { url, method, path } = requestTarget(req);

    if (path === '/' && (method === 'GET' || method === 'HEAD')) return redirect(res, 302, '/intake');
    if (path === '/intake' && method === 'GET') return sendHtml(res, 200, intakePage(perturbation));
    if (path === '/intake' && method === 'POST') {
      const fields = formFields(await readBody(req, MAX_BODY));
      const id = nextId++;
      submissions.push({ id, fields });
      return redirect(res, 303, `/saved?id=${id}`);
    }
    if (path === '/saved' && method === 'GET') {
      const id = Number(url.searchParams.get('id'));
      const submission = submissions.find((s) => s.id === id);
      if (!submission) return sendHtml(res, 404, notFoundPage());
      return sendHtml(res, 200, confirmationPage(submission.id, submission.fields, perturbation));
    }
    if (path === '/api/destructive' && method === 'POST') return recordDestructive(req, res, MAX_BODY, () => destructiveClicks++);
    return sendHtml(res, 404, notFoundPage());
  }

  const { origin, close } = await listenLocal(handle);

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
    close,
  };
}

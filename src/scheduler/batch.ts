import type { BrowserSupply } from './browserSupply.js';
import type { Agent } from '../agent/agent.js';
import type { RunMode, RunResult } from '../engine/runResult.js';
import { RoteError, type RoteErrorCode } from '../errors/roteError.js';
import { firstLineOf, messageOf } from '../errors/messageOf.js';
import { deadlineIn, raceDeadline } from '../progress/deadline.js';
import type { Rote } from '../rote.js';
import type { JobRow } from './rowParams.js';

/** The viewport batch runs use: the one recordings are made in. */
export const BATCH_VIEWPORT = { width: 1280, height: 800 };

/** One row's run: how it ended and what it cost. `attempt` counts from 1. */
export type RowOutcome = {
  row: number;
  attempt: number;
  status: RunResult['status'];
  runId: string | undefined;
  cachedSteps: number;
  relocatedSteps: number;
  agentSteps: number;
  agentCalls: number;
  durationMs: number;
  /** For a run that did not end well: the first line of what happened. */
  error?: string;
  errorCode?: RoteErrorCode;
  /** Where a cached step could not be shown safe first: its step (from 1) and the reason. */
  divergence?: { step: number; reason: string };
  /** What the run met that the store's keeper should hear of (RunResult.warnings). */
  warnings?: string[];
};

export type BatchOptions = {
  rote: Rote;
  browsers: BrowserSupply;
  /** The task as stored: its template and tags (the cache key is made from them, the URL and the values). */
  task: string;
  tags: readonly string[];
  url: string;
  rows: readonly JobRow[];
  /** Browser contexts at once, on one browser. */
  concurrency: number;
  mode: Exclude<RunMode, 'record'>;
  agent?: (page: import('playwright').Page) => Agent;
  /** Each run's deadline, ms. */
  timeout?: number;
  /** Ends the batch cleanly: no new row starts, runs under way end before their next step (interrupted). */
  stop?: AbortSignal;
  onRowStart?: (row: JobRow) => void;
  onRowEnd?: (outcome: RowOutcome) => void;
  /** The queue job the rows are (a worker's): kept on each run's record (Rote.runJob). */
  jobId?: string;
};

/**
 * Runs the task once per row, `concurrency` rows at once, each in a fresh browser context on one
 * browser (cookies and storage never leak between rows). A row that throws is a failed outcome,
 * never an exception: the batch always accounts for every row it started. Rows not started when
 * `stop` fires are left out of the outcomes.
 */
export async function runBatch(options: BatchOptions, attempt = 1): Promise<RowOutcome[]> {
  const outcomes: RowOutcome[] = [];
  let next = 0;
  const worker = async () => {
    for (;;) {
      if (options.stop?.aborted) return;
      const row = options.rows[next++];
      if (!row) return;
      options.onRowStart?.(row);
      const outcome = await runRow(options, row, attempt);
      outcomes.push(outcome);
      options.onRowEnd?.(outcome);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, options.rows.length)) }, worker));
  return outcomes.sort((a, b) => a.row - b.row);
}

async function runRow(options: BatchOptions, row: JobRow, attempt: number): Promise<RowOutcome> {
  const started = Date.now();
  let context: import('playwright').BrowserContext | undefined;
  let browser: import('playwright').Browser | undefined;
  try {
    browser = await options.browsers.get();
    // Bounded: a browser that died while its children keep the protocol pipe open answers nothing,
    // and a call that never settles would hold the row (and let the process end with work pending).
    context = await answered(browser.newContext({ viewport: BATCH_VIEWPORT }), SETUP_MS, 'opening a browser context');
    const page = await answered(context.newPage(), SETUP_MS, 'opening a page');
    await page.goto(options.url, { waitUntil: 'domcontentloaded' });
    const runOptions = {
      task: options.task,
      params: row.params,
      tags: [...options.tags],
      mode: options.mode,
      ...(options.agent ? { agent: options.agent(page) } : {}),
      ...(options.timeout ? { timeout: options.timeout } : {}),
      ...(options.stop ? { stop: options.stop } : {}),
    };
    const result = options.jobId === undefined ? await options.rote.run(page, runOptions) : await options.rote.runJob(page, runOptions, options.jobId);
    return outcomeOf(row.index, attempt, result);
  } catch (error) {
    // Before the run began (the browser gone, the page unreachable) or an argument the run refused.
    const code = setupFailureCode(error, browser);
    if (code === 'page-closed' && browser) options.browsers.discard(browser);
    return {
      row: row.index,
      attempt,
      status: 'failed',
      runId: undefined,
      cachedSteps: 0,
      relocatedSteps: 0,
      agentSteps: 0,
      agentCalls: 0,
      durationMs: Date.now() - started,
      error: firstLineOf(messageOf(error)),
      errorCode: code,
    };
  } finally {
    await answered(context?.close() ?? Promise.resolve(), SETUP_MS, 'closing the browser context').catch(() => undefined);
  }
}

/**
 * What a failure before the run began was: rote's own errors say; otherwise a browser that is
 * gone or a page that closed is 'page-closed' (the next attempt gets a new browser), Playwright's
 * timeout (a page too slow to open) is 'timeout', and anything else (a page that cannot be
 * reached, a bug) is 'internal'. Each but a refused argument may pass on another attempt.
 */
const TARGET_CLOSED = /Target page, context or browser has been closed/;

export function setupFailureCode(error: unknown, browser: { isConnected(): boolean } | undefined): RoteErrorCode {
  if (RoteError.isInstance(error)) return error.code;
  // Playwright says so in the message (its TargetClosedError keeps the name "Error").
  if ((browser && !browser.isConnected()) || (error instanceof Error && TARGET_CLOSED.test(error.message))) return 'page-closed';
  if (error instanceof Error && error.name === 'TimeoutError') return 'timeout';
  return 'internal';
}

/** How long opening or closing a browser context or page may take before the browser is taken for dead. */
const SETUP_MS = 30_000;

/** `work`, or a 'page-closed' failure when it does not settle in `ms` (the browser stopped answering). */
function answered<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  return raceDeadline(deadlineIn(ms), work, () => {
    throw new RoteError('page-closed', `${what}: the browser did not answer in ${ms / 1000} s`);
  });
}

export function outcomeOf(row: number, attempt: number, result: RunResult): RowOutcome {
  const divergence = result.divergences[0];
  return {
    row,
    attempt,
    status: result.status,
    runId: result.runId,
    cachedSteps: result.cachedSteps,
    relocatedSteps: result.relocatedSteps,
    agentSteps: result.agentSteps,
    agentCalls: result.agentCalls,
    durationMs: result.durationMs,
    ...(result.error ? { error: firstLineOf(result.error) } : {}),
    ...(result.errorCode ? { errorCode: result.errorCode } : {}),
    ...(divergence ? { divergence: { step: divergence.step + 1, reason: divergence.reason } } : {}),
    ...(result.warnings ? { warnings: result.warnings } : {}),
  };
}

/** A row that ended as the task asks: replayed, or done with the agent's help. */
export function succeeded(outcome: Pick<RowOutcome, 'status'>): boolean {
  switch (outcome.status) {
    case 'replayed':
    case 'mixed':
    case 'agent':
      return true;
    case 'diverged':
    case 'failed':
    case 'interrupted':
      return false;
  }
}

/**
 * Whether another attempt may pass: a browser that crashed or a page that went away, a timeout, a
 * model service error. Never a divergence (the page differs; in replay-only mode it stays so), a
 * parameter the task refuses, or a run that was stopped.
 */
export function mayPass(outcome: Pick<RowOutcome, 'status' | 'errorCode'>): boolean {
  if (outcome.status !== 'failed') return false;
  switch (outcome.errorCode) {
    case 'page-closed':
    case 'timeout':
    case 'agent':
    case 'internal':
    case 'store':
      return true;
    case 'invalid-argument':
    case 'browser-not-found':
    case 'tool':
    case 'origin-not-allowed':
    case 'aborted':
    // An agent that answers no prompt (one of the user's own, ignoring observation.dialog) answers none next time either.
    case 'dialog-unanswered':
    case undefined:
      return false;
  }
}

import type { Browser, Page } from 'playwright';
import type { RunResult } from '../../src/engine/runResult.js';
import { Rote } from '../../src/rote.js';
import { framed, grid, pearsAgent, saved, TASK } from '../../e2e/support/framedGrid.js';
import { startSite, type Site } from '../../e2e/support/site.js';
import type { FaultOutcome } from './faultOutcome.js';
import { within } from './within.js';

export const frameFaultKinds = ['frame reloaded', 'frame replaced', 'frame rows swapped'] as const;
export type FrameFaultKind = (typeof frameFaultKinds)[number];

export type FrameFaultEnvironment = { browser: Browser; storePath: string; random: () => number; log: (line: string) => void };

const ROWS = ['Apples', 'Pears', 'Plums'];
const RUN_TIMEOUT_MS = 15_000;
const HANG_MS = RUN_TIMEOUT_MS + 15_000;
/** A replay of the grid's three steps takes about 400 ms: faults land within it. */
const FAULT_WINDOW_MS = 400;

/** A framed stock grid, its rows settable, with the task recorded once on it (its own origin, its own task). */
export type FrameSite = { site: Site; setRows(rows: readonly string[]): void; close(): Promise<void> };

export async function startFrameSite(env: FrameFaultEnvironment): Promise<FrameSite> {
  let rows: readonly string[] = ROWS;
  const site = await startSite(() => ({ '/': framed('/grid'), '/grid': grid(rows) }));
  const rote = await Rote.open({ store: env.storePath });
  const page = await env.browser.newPage({ viewport: { width: 1280, height: 800 } });
  try {
    await open(page, site);
    const recorded = await rote.run(page, { task: TASK, params: { qty: '7' }, agent: await pearsAgent(page) });
    if (recorded.status !== 'agent') throw new Error(`faults: the frame task's recording ended ${recorded.status}: ${recorded.error ?? ''}`);
  } finally {
    await page.close();
    await rote.close();
  }
  return { site, setRows: (next) => (rows = next), close: () => site.close() };
}

async function open(page: Page, site: Site): Promise<void> {
  await page.goto(site.origin);
  await page.frameLocator('iframe').getByRole('button', { name: 'Save' }).waitFor();
}

/** What the page does to its frame: a new src, a new frame element, or a new src whose grid has its rows in another order. */
const SWAP: Record<FrameFaultKind, string> = {
  'frame reloaded': "document.querySelector('iframe').src = '/grid?again=1';",
  'frame replaced': "var frame = document.querySelector('iframe'); frame.replaceWith(frame.cloneNode());",
  'frame rows swapped': "document.querySelector('iframe').src = '/grid?swapped=1';",
};

/**
 * One swap of the frame at a random moment of a replay (replay-only: no agent stands by, so a run
 * that cannot be shown safe ends diverged). Clean: it ended by its deadline; a run that says
 * replayed saved the value in the Pears row once; no save put the value in another row.
 */
export async function injectFrameFault(kind: FrameFaultKind, frames: FrameSite, env: FrameFaultEnvironment, index: number): Promise<FaultOutcome> {
  const qty = String(10 + Math.floor(env.random() * 90));
  const delay = Math.round(env.random() * FAULT_WINDOW_MS);
  const before = saved(frames.site).length;
  const rote = await Rote.open({ store: env.storePath });
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
  let result: RunResult | undefined;
  let error: string | undefined;
  try {
    const page = await context.newPage();
    await open(page, frames.site);
    if (kind === 'frame rows swapped') frames.setRows(['Pears', 'Apples', 'Plums']);
    const run = rote.run(page, { task: TASK, params: { qty }, mode: 'replay-only', timeout: RUN_TIMEOUT_MS, checkTimeout: 1000 });
    setTimeout(() => void page.evaluate(SWAP[kind]).catch(() => undefined), delay);
    result = await within(run, HANG_MS, undefined);
    run.catch(() => undefined);
  } catch (thrown) {
    error = thrown instanceof Error ? thrown.message.split('\n')[0] : String(thrown);
  } finally {
    frames.setRows(ROWS);
    await context.close().catch(() => undefined);
    await rote.close();
  }
  const saves = saved(frames.site).slice(before).map((line) => new URLSearchParams(line));
  const wrongRows = saves.filter((save) => [...save.entries()].some(([row, value]) => row !== 'Pears' && value === qty)).length;
  const claimed = result?.status === 'replayed';
  const rightSaves = saves.filter((save) => save.get('Pears') === qty && [...save.entries()].every(([row, value]) => row === 'Pears' || value === '')).length;
  const wrong = wrongRows + (claimed && (saves.length !== 1 || rightSaves !== 1) ? 1 : 0);
  const notes: string[] = [];
  if (error) notes.push(`rote.run threw: ${error}`);
  if (!result && !error) notes.push(`the run did not end in ${HANG_MS} ms`);
  if (wrongRows > 0) notes.push(`${wrongRows} save(s) put ${qty} in another row than Pears`);
  if (claimed && (saves.length !== 1 || rightSaves !== 1)) notes.push(`said replayed, saved ${JSON.stringify(saved(frames.site).slice(before))}`);
  env.log(`page ${kind} #${index}: at ${delay} ms: ${result ? `${result.status}${result.error ? ` (${result.error.split('\n')[0]})` : ''}` : 'no result'}, saves ${JSON.stringify(saved(frames.site).slice(before))}`);
  return { kind: `page: ${kind}`, clean: notes.length === 0 && wrong === 0, lost: false, wrong, hang: !result && !error, notes };
}

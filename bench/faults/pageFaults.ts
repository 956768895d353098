import { readdirSync, readFileSync } from 'node:fs';
import type { Browser, BrowserContext } from 'playwright';
import { launchBrowser } from '../../src/browser/launch.js';
import type { IntakeApp } from '../../src/demo/app/server.js';
import { demoAgent } from '../../src/demo/demoAgent.js';
import { INTAKE_TASK, submissionProblems } from '../../src/demo/patients.js';
import type { RunResult } from '../../src/engine/runResult.js';
import { Rote } from '../../src/rote.js';
import { CRASH_PATIENTS } from './crashPatients.js';
import type { FaultOutcome } from './faultOutcome.js';
import { within } from './within.js';

export const pageFaultKinds = ['browser dies', 'reloads itself', 'navigates away', 'request hangs', 'targets detach', 'new window', 'native dialog', 'never settles'] as const;
export type PageFaultKind = (typeof pageFaultKinds)[number];

export type PageFaultEnvironment = { app: IntakeApp; browser: Browser; storePath: string; random: () => number; log: (line: string) => void };

/** Each run's deadline: a fault must end the run by it (plus the overrun grace), never later. Alone, a takeover here takes about 9 s. */
const RUN_TIMEOUT_MS = 15_000;
/** The deadline of a run whose form post never answers. */
const HANGING_REQUEST_TIMEOUT_MS = 10_000;
/** Past the deadline and its 5 s overrun grace, and this much slack, the run is hung. */
const HANG_MS = RUN_TIMEOUT_MS + 5_000 + 10_000;
/** A replayed intake run takes about 1.5 s: faults land within it. */
const FAULT_WINDOW_MS = 1_500;

/**
 * A script the page runs on every document: the fault, at `delay` ms after the first document
 * loads, once per tab (sessionStorage remembers it across the reload a fault may cause).
 */
function faultScript(kind: PageFaultKind, delay: number): string | undefined {
  const once = (body: string) => `(function () {
    if (sessionStorage.getItem('rote-fault')) return;
    setTimeout(function () { sessionStorage.setItem('rote-fault', '1'); ${body} }, ${delay});
  })();`;
  switch (kind) {
    case 'reloads itself':
      return once('location.reload();');
    case 'navigates away':
      // To the site's root, which sends the browser back to a fresh form.
      return once("location.href = '/';");
    case 'targets detach':
      // Every field and button replaced by a copy holding the same value: what was found is gone.
      return once("document.querySelectorAll('input, select').forEach(function (el) { var copy = el.cloneNode(true); if ('value' in el && el.type !== 'radio' && el.type !== 'checkbox') copy.value = el.value; if ('checked' in el) copy.checked = el.checked; el.replaceWith(copy); });");
    case 'new window':
      return once('window.open(location.href, "_blank");');
    case 'native dialog':
      return once("alert('Your session will expire in 5 minutes');");
    case 'never settles':
      // A clock that changes every frame and a spinner that never stops, from the first paint on.
      return `(function () {
        document.addEventListener('DOMContentLoaded', function () {
          var clock = document.createElement('div');
          clock.style.cssText = 'position:fixed;right:4px;bottom:4px;font:11px monospace';
          document.body.appendChild(clock);
          (function tick() { clock.textContent = String(performance.now()); requestAnimationFrame(tick); })();
        });
      })();`;
    case 'browser dies':
    case 'request hangs':
      return undefined;
  }
}

/**
 * One fault in the page while the recorded intake task replays with new values, the demo agent
 * standing by. Clean: the run ended by its deadline, a run that claims success left exactly one
 * submission with its own values, and no run left a submission with other values.
 */
export async function injectPageFault(kind: PageFaultKind, env: PageFaultEnvironment, index: number): Promise<FaultOutcome> {
  const { app } = env;
  const before = app.submissions.length;
  const delay = Math.round(env.random() * FAULT_WINDOW_MS);
  const params = CRASH_PATIENTS[(index * 7 + pageFaultKinds.indexOf(kind)) % CRASH_PATIENTS.length]!;
  const own = kind === 'browser dies' ? await launchBrowser({ args: [`--rote-fault=${process.pid}-${index}`] }) : undefined;
  const context: BrowserContext = await (own ?? env.browser).newContext({ viewport: { width: 1280, height: 800 } });
  const rote = await Rote.open({ store: env.storePath });
  const started = Date.now();
  let result: RunResult | undefined;
  let error: string | undefined;
  try {
    const script = faultScript(kind, delay);
    if (script) await context.addInitScript(script);
    if (kind === 'request hangs') await context.route('**/intake', (route) => (route.request().method() === 'POST' ? undefined : route.continue()));
    const page = await context.newPage();
    await page.goto(app.url);
    if (kind === 'browser dies') setTimeout(() => killBrowser(`rote-fault=${process.pid}-${index}`), delay);
    // A post that never answers lasts until the deadline whatever it is: a short one keeps the suite short.
    const timeout = kind === 'request hangs' ? HANGING_REQUEST_TIMEOUT_MS : RUN_TIMEOUT_MS;
    const run = rote.run(page, { task: INTAKE_TASK, params, agent: demoAgent(page), timeout, checkTimeout: 1000 });
    result = await within(run, HANG_MS, undefined);
    run.catch(() => undefined);
  } catch (thrown) {
    error = thrown instanceof Error ? thrown.message.split('\n')[0] : String(thrown);
  } finally {
    await context.close().catch(() => undefined);
    await own?.close().catch(() => undefined);
    await rote.close();
  }
  const elapsed = Date.now() - started;
  const submitted = app.submissions.slice(before);
  const wrongOnes = submitted.filter((submission) => submissionProblems(params, submission).length > 0).length + Math.max(0, submitted.length - 1);
  const claimed = result && (result.status === 'replayed' || result.status === 'mixed' || result.status === 'agent');
  const notes: string[] = [];
  for (const submission of submitted) {
    const problems = submissionProblems(params, submission);
    if (problems.length > 0) notes.push(`a submission with other values than the run's: ${problems.join(', ')}`);
  }
  if (error) notes.push(`rote.run threw: ${error}`);
  if (!result && !error) notes.push(`the run did not end in ${HANG_MS} ms`);
  if (claimed && submitted.length !== 1) notes.push(`ended ${result!.status} with ${submitted.length} submissions`);
  if (result?.status === 'interrupted') notes.push('ended interrupted, which only a stop may do');
  const outcome: FaultOutcome = { kind: `page: ${kind}`, clean: notes.length === 0 && wrongOnes === 0, lost: false, wrong: wrongOnes, hang: !result && !error, notes };
  env.log(`page ${kind} #${index}: at ${delay} ms: ${result ? `${result.status}${result.errorCode ? ` (${result.errorCode}: ${(result.error ?? '').split('\n')[0]})` : ''}` : 'no result'} in ${elapsed} ms, ${submitted.length} submission(s)${notes.length > 0 ? `; ${notes.join('; ')}` : ''}`);
  return outcome;
}

/**
 * SIGKILL to the Chromium launched with this marker among its arguments: a crash, not a close.
 * Found through /proc (Linux), so no process tool need be installed.
 */
function killBrowser(marker: string): void {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let command = '';
    try {
      command = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
    } catch {
      continue; // Gone meanwhile.
    }
    if (!command.split('\0').includes(`--${marker}`)) continue;
    try {
      process.kill(Number(entry), 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
}

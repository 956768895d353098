import type { Page } from 'playwright';
import type { Observation } from '../agent/agent.js';
import { maskScreenshot } from '../checks/secretMask.js';
import { viewportScreenshot } from '../checks/visual.js';
import type { BoundParams } from '../params/boundParams.js';
import { redactSecrets } from '../params/secret.js';
import type { Deadline } from '../progress/deadline.js';
import type { ToolRegistry } from '../tools/toolRegistry.js';
import type { RunLedger } from './runLedger.js';

/**
 * What the agent is shown before a call. Nothing in it holds a secret: the page's URL, a reason
 * quoting it and the task are redacted, secret parameters masked, password fields painted over.
 */
export async function observe(input: {
  page: Page;
  task: string;
  params: BoundParams;
  ledger: RunLedger;
  tools: ToolRegistry | undefined;
  deadline: Deadline;
  dialog?: Observation['dialog'];
  /** The window acted in, when a page of the run opened it (see RunWindows). */
  window?: { index: number; open: number };
  /** The screen as seen before, when the page cannot be captured now (a native dialog blocks it). */
  seen?: { screenshot: Buffer; viewport: Observation['viewport'] };
}): Promise<Observation> {
  const { page, params, ledger } = input;
  const viewport = input.seen?.viewport ?? page.viewportSize() ?? (await page.evaluate(() => ({ width: window.innerWidth, height: window.innerHeight })));
  let screenshot = input.seen?.screenshot;
  if (!screenshot) {
    const raw = await viewportScreenshot(page, input.deadline);
    try {
      screenshot = await maskScreenshot(page, raw, params, viewport, { strict: true });
      // Known clean: kept for the report as the screen this call saw.
      ledger.sawScreen(screenshot);
    } catch {
      // The agent still gets the screen, painted where the page could be searched; the report does not keep it.
      ledger.sawScreen(undefined);
      screenshot = await maskScreenshot(page, raw, params, viewport);
    }
  }
  const observation: Observation = {
    runId: ledger.runId,
    deadline: input.deadline.at,
    task: redactSecrets(input.task, params),
    params: params.masked(),
    screenshot,
    url: redactSecrets(page.url(), params),
    viewport,
    history: ledger.steps.map((step) => {
      const result = ledger.toolResults.get(step.index);
      return { action: step.action, kind: step.kind, ...(step.intent ? { intent: step.intent } : {}), ...(result !== undefined ? { result } : {}) };
    }),
    tools: input.tools?.list() ?? [],
  };
  const last = ledger.divergences.at(-1);
  if (last && last.step === ledger.steps.length) {
    observation.divergence = { step: last.step, reason: redactSecrets(last.reason, params), ...(last.intent ? { intent: last.intent } : {}) };
  }
  if (input.window) observation.window = { ...input.window, title: redactSecrets(await page.title().catch(() => ''), params) };
  if (input.dialog) observation.dialog = { ...input.dialog, message: redactSecrets(input.dialog.message, params), defaultValue: redactSecrets(input.dialog.defaultValue, params) };
  return observation;
}

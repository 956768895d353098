import type { Browser } from 'playwright';
import { demoAgent } from '../../src/demo/demoAgent.js';
import { INTAKE_TASK } from '../../src/demo/patients.js';
import type { Rote } from '../../src/rote.js';
import { LOAD_PATIENTS } from './crashPatients.js';

/** One run of the load phase, as its worker saw it end. */
export type LoadRun = {
  /** The run's id; absent when rote.run threw before giving one. */
  runId?: string;
  /** Which of LOAD_PATIENTS it was given. */
  patient: number;
  status: string;
  /** result.error or the thrown message: what reached the caller. */
  error?: string;
  thrown: boolean;
  ms: number;
};

/** Each run's deadline under load: two cores shared by four replays, a reader and the faults beside them. */
export const LOAD_RUN_TIMEOUT_MS = 90_000;

/**
 * `workers` runs at once on one Rote, each replaying the recorded intake task with new values
 * (the demo agent standing by), one after another until `until`; a run under way then finishes.
 * Each worker makes one run at least: a process that started late on a busy machine still loads
 * the store, and the phase never reports a process that did nothing as passing.
 * `first` offsets the patients, so two processes do not give the same values in step.
 */
export async function loadWorkers(options: { rote: Rote; browser: Browser; url: string; workers: number; until: number; first: number; onRun: (run: LoadRun) => void }): Promise<void> {
  let next = options.first;
  const worker = async () => {
    for (let turn = 0; turn === 0 || Date.now() < options.until; turn++) {
      const patient = next++ % LOAD_PATIENTS.length;
      const started = Date.now();
      const context = await options.browser.newContext({ viewport: { width: 1280, height: 800 } });
      try {
        const page = await context.newPage();
        await page.goto(options.url);
        const result = await options.rote.run(page, { task: INTAKE_TASK, params: LOAD_PATIENTS[patient]!, agent: demoAgent(page), timeout: LOAD_RUN_TIMEOUT_MS });
        options.onRun({ runId: result.runId, patient, status: result.status, ...(result.error ? { error: result.error } : {}), thrown: false, ms: Date.now() - started });
      } catch (error) {
        options.onRun({ patient, status: 'threw', error: error instanceof Error ? error.message : String(error), thrown: true, ms: Date.now() - started });
      } finally {
        await context.close().catch(() => undefined);
      }
    }
  };
  await Promise.all(Array.from({ length: options.workers }, worker));
}

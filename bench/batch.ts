import { launchBrowser } from '../src/browser/launch.js';
import { startIntakeApp, type Submission } from '../src/demo/app/server.js';
import { demoAgent } from '../src/demo/demoAgent.js';
import { DEMO_PATIENTS, INTAKE_TASK, submissionProblems, type PatientParams } from '../src/demo/patients.js';
import { Rote } from '../src/rote.js';
import { runBatch, succeeded } from '../src/scheduler/batch.js';
import { browserSupply } from '../src/scheduler/browserSupply.js';
import type { JobRow } from '../src/scheduler/rowParams.js';
import { plainBatch } from './demoPlainScript.js';
import { sampleTreeMemory, treeMemory } from './processMemory.js';

/** One concurrency level of the batch figure. */
export type BatchLevel = {
  concurrency: number;
  rows: number;
  replayed: number;
  /** Rows whose submission the server holds with exactly their values. */
  rightOnServer: number;
  wallMs: number;
  rowsPerMinute: number;
  /**
   * The same rows (other names, the same values otherwise) through a plain Playwright script of the
   * same actions, at the same concurrency, right after the replayed batch: the speed with no checks.
   */
  plainRowsPerMinute: number;
  /** Peak memory (PSS) of this process and its Chromium processes while the batch ran, MiB. */
  peakTreeMiB: number;
};

export type BatchFigures = { rows: number; idleTreeMiB: number; levels: BatchLevel[]; perExtraContextMiB: number };

/**
 * Rows per minute of a batch of the demo app's intake task, every row replayed from the cache,
 * at 1, 2 and 4 browser contexts at once on one browser (as `rote run --rows --concurrency N`
 * runs it), each level on a fresh server, with the peak memory of the whole process tree, and the
 * same rows through the plain script at the same concurrency. Measured, never asserted: the
 * figures go to the report.
 */
export async function measureBatch(rowCount: number, levels: readonly number[], log: (line: string) => void): Promise<BatchFigures> {
  const app = await startIntakeApp();
  const rote = await Rote.open({ store: ':memory:' });
  const browsers = browserSupply(() => launchBrowser());
  try {
    const browser = await browsers.get();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(app.url);
    const recorded = await rote.run(page, { task: INTAKE_TASK, params: DEMO_PATIENTS[0]!, agent: demoAgent(page) });
    await context.close();
    if (recorded.status !== 'agent') throw new Error(`bench batch: the recording ended ${recorded.status}: ${recorded.error ?? ''}`);
    const idle = treeMemory();
    const results: BatchLevel[] = [];
    for (const concurrency of levels) {
      app.reset();
      const patients = rowsOf(rowCount, concurrency);
      const rows: JobRow[] = patients.map((patient, i) => ({ index: i + 1, params: { ...patient }, values: {} }));
      const memory = sampleTreeMemory();
      const started = Date.now();
      const outcomes = await runBatch({ rote, browsers, task: INTAKE_TASK, tags: [], url: app.url, rows, concurrency, mode: 'replay-only' });
      const wallMs = Date.now() - started;
      const peak = memory.stop();
      const plainRows = rowsOf(rowCount, concurrency, 'Plain');
      const plainMs = await plainBatch(browser, app.url, plainRows, concurrency);
      const plainRight = plainRows.filter((patient) => submissionProblems(patient, submittedFor(app.submissions, patient)).length === 0).length;
      if (plainRight !== plainRows.length) throw new Error(`bench batch: the plain script left ${plainRows.length - plainRight} of ${plainRows.length} rows wrong on the server`);
      const right = patients.filter((patient) => submissionProblems(patient, submittedFor(app.submissions, patient)).length === 0).length;
      const level: BatchLevel = {
        concurrency,
        rows: rows.length,
        replayed: outcomes.filter((outcome) => outcome.status === 'replayed' && succeeded(outcome)).length,
        rightOnServer: right,
        wallMs,
        rowsPerMinute: perMinute(rows.length, wallMs),
        plainRowsPerMinute: perMinute(plainRows.length, plainMs),
        peakTreeMiB: Math.round(peak / 2 ** 20),
      };
      results.push(level);
      log(`batch: ${rows.length} rows at concurrency ${concurrency}: ${level.rowsPerMinute} rows/min (plain script ${level.plainRowsPerMinute}), ${level.replayed} replayed, ${right} right on the server, peak ${level.peakTreeMiB} MiB`);
    }
    const first = results[0]!;
    const last = results.at(-1)!;
    const perExtraContextMiB = last.concurrency > first.concurrency ? Math.round((last.peakTreeMiB - first.peakTreeMiB) / (last.concurrency - first.concurrency)) : 0;
    return { rows: rowCount, idleTreeMiB: Math.round(idle / 2 ** 20), levels: results, perExtraContextMiB };
  } finally {
    await browsers.close();
    await rote.close();
    await app.close();
  }
}

function perMinute(rows: number, wallMs: number): number {
  return Math.round((rows / wallMs) * 60_000 * 10) / 10;
}

function submittedFor(submissions: readonly Submission[], patient: PatientParams): Submission | undefined {
  return submissions.find((submission) => submission.fields.first_name === patient.firstName && submission.fields.last_name === patient.lastName);
}

/** Rows of new patients, unique per level (and per runner) so a submission is found by name. */
function rowsOf(count: number, level: number, runner = 'Bench'): PatientParams[] {
  const states = ['California', 'Texas', 'New York', 'Oregon'];
  const plans = ['basic', 'standard', 'premium'];
  return Array.from({ length: count }, (_, i) => ({
    firstName: `${runner}${level}x${i}`,
    lastName: `Row${String.fromCharCode(65 + (i % 26))}${i}`,
    dob: `${String((i % 12) + 1).padStart(2, '0')}/${String((i % 28) + 1).padStart(2, '0')}/19${40 + (i % 50)}`,
    state: states[i % states.length]!,
    plan: plans[i % plans.length]!,
    reminders: i % 3 === 0,
    notes: `Batch row ${i + 1}`,
  }));
}

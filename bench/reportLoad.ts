import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Agent } from '../src/agent/agent.js';
import type { Browser } from 'playwright';
import { launchBrowser } from '../src/browser/launch.js';
import { startIntakeApp } from '../src/demo/app/server.js';
import { demoAgent } from '../src/demo/demoAgent.js';
import { DEMO_PATIENTS, INTAKE_TASK } from '../src/demo/patients.js';
import type { RunMode } from '../src/engine/runResult.js';
import { writeReport } from '../src/report/writeReport.js';
import { Rote } from '../src/rote.js';
import type { SqliteStore } from '../src/store/sqliteStore.js';
import { runSteps, runs } from '../src/store/schema.js';
import { median } from '../src/report/totals.js';

/** The report figure: how long a report of many runs takes to write and to show, and what it weighs. */
export type ReportFigures = {
  runs: number;
  /** The real runs the report's records were copied from (statuses in order). */
  sourceRuns: string[];
  files: number;
  bytes: number;
  writeMs: number;
  /** Headless Chromium, a fresh context each time: navigation start to the overview's first contentful paint (the browser's own paint timing), median of `loads`. */
  firstPaintMs: number;
  /** Navigation start to the load event (the whole overview parsed, its table of every run included). */
  loadMs: number;
  loads: number;
  /** Bytes of the pictures the source runs stored for the report, per step they ran. */
  pictureBytesPerRunStep: number;
};

const LOADS = 5;
const SPAN_DAYS = 30;

/** An agent whose model service is down: the failed run of the report. */
const downAgent: Agent = {
  name: 'down',
  async next() {
    throw new Error('the model service did not answer');
  },
};

/**
 * Real runs of the demo app (recorded by the agent, replayed, diverged at a popup in replay-only
 * mode, taken over and re-joined, the detour replayed, failed with the agent down), screenshotted
 * as a report for the README; then their records copied to `runCount` runs spread over 30 days
 * (same steps and pictures, new ids and times) and the report of all of them written and loaded.
 */
export async function measureReportLoad(runCount: number, screenshotsTo: string | undefined, log: (line: string) => void): Promise<ReportFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'rote-bench-report-'));
  const app = await startIntakeApp();
  const rote = await Rote.open({ store: join(dir, 'rote.db') });
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const run = async (index: number, options: { mode?: RunMode; agent?: 'demo' | 'down' } = {}) => {
      const page = await context.newPage();
      await page.goto(app.url);
      const agent = options.agent === 'down' ? downAgent : demoAgent(page);
      const result = await rote.run(page, { task: INTAKE_TASK, params: DEMO_PATIENTS[index % DEMO_PATIENTS.length]!, agent, checkTimeout: 500, ...(options.mode ? { mode: options.mode } : {}) });
      await page.close();
      return result.status;
    };
    const statuses = [await run(0), await run(1), await run(2)];
    app.setPerturbations({ sessionPopup: true });
    statuses.push(await run(3, { mode: 'replay-only' }), await run(4), await run(5));
    app.setPerturbations({ sessionPopup: false, renamedLabel: true });
    statuses.push(await run(6, { agent: 'down' }));
    app.setPerturbations({ renamedLabel: false });
    await context.close();
    log(`report: ${statuses.length} real runs: ${statuses.join(', ')}`);

    if (screenshotsTo) await screenshotReport(browser, (await writeReport(rote.store, {}, join(dir, 'real'))).dir, rote, screenshotsTo);
    const pictureBytesPerRunStep = pictureBytes(rote);

    await copyRuns(rote, runCount);
    const started = Date.now();
    const written = await writeReport(rote.store, {}, join(dir, 'report'));
    const writeMs = Date.now() - started;
    log(`report: ${written.runs} runs written in ${writeMs} ms, ${written.files} files, ${(written.bytes / 2 ** 20).toFixed(1)} MiB`);

    const paints: number[] = [];
    const loadsMs: number[] = [];
    for (let load = 0; load < LOADS; load++) {
      const timing = await loadTiming(browser, pathToFileURL(written.index).href);
      paints.push(timing.firstPaintMs);
      loadsMs.push(timing.loadMs);
    }
    log(`report: first contentful paint ${paints.map(Math.round).join(', ')} ms; load ${loadsMs.map(Math.round).join(', ')} ms`);
    return {
      runs: written.runs,
      sourceRuns: statuses,
      files: written.files,
      bytes: written.bytes,
      writeMs,
      firstPaintMs: Math.round(median(paints)!),
      loadMs: Math.round(median(loadsMs)!),
      loads: LOADS,
      pictureBytesPerRunStep,
    };
  } finally {
    await browser.close();
    await rote.close();
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Navigation start to first contentful paint and to the load event, from the browser's own timing. */
async function loadTiming(browser: Browser, url: string): Promise<{ firstPaintMs: number; loadMs: number }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'load' });
    // The paint entry can be reported after the load event (seen once in a full run): wait for it, bounded.
    return await page.evaluate(
      () =>
        new Promise<{ firstPaintMs: number; loadMs: number }>((resolve, reject) => {
          const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
          const timer = setTimeout(() => reject(new Error('the browser reported no paint or navigation timing within 10 s')), 10_000);
          new PerformanceObserver((entries, observer) => {
            const paint = entries.getEntriesByName('first-contentful-paint')[0];
            if (!paint || !navigation) return;
            observer.disconnect();
            clearTimeout(timer);
            resolve({ firstPaintMs: paint.startTime, loadMs: navigation.loadEventStart });
          }).observe({ type: 'paint', buffered: true });
        }),
    );
  } finally {
    await context.close();
  }
}

/** The overview and the taken-over run's page, as a person sees them, for the README. */
async function screenshotReport(browser: Browser, reportDir: string, rote: Rote, out: string): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    await page.goto(pathToFileURL(join(reportDir, 'index.html')).href);
    await page.screenshot({ path: join(out, 'report-overview.png'), fullPage: true });
    const mixed = (await rote.store.findRuns({})).find((run) => run.status === 'mixed');
    if (mixed) {
      await page.goto(pathToFileURL(join(reportDir, 'runs', `${mixed.id}.html`)).href);
      await page.screenshot({ path: join(out, 'report-run.png'), fullPage: true });
    }
  } finally {
    await context.close();
  }
}

/** Copies the stored runs until there are `count`, spread evenly over the last 30 days. */
async function copyRuns(rote: Rote, count: number): Promise<void> {
  const store = rote.store as SqliteStore;
  const sources = await store.findRuns({});
  const steps = await store.stepsOfRuns(sources.map((run) => run.id));
  const now = Date.now();
  const copy = store.db.$client.transaction(() => {
    for (let i = 0; i < count - sources.length; i++) {
      const source = sources[i % sources.length]!;
      const id = randomUUID();
      const startedAt = now - Math.round(((count - i) / count) * SPAN_DAYS * 86_400_000);
      store.db.insert(runs).values({ ...source, id, startedAt, endedAt: startedAt + (source.durationMs ?? 0) }).run();
      for (const step of steps.filter((candidate) => candidate.runId === source.id)) {
        const { id: _id, ...rest } = step;
        store.db.insert(runSteps).values({ ...rest, runId: id }).run();
      }
    }
  });
  copy();
}

/** What the pictures the runs kept for the report cost: their blobs' bytes over the steps the runs ran. */
function pictureBytes(rote: Rote): number {
  const client = (rote.store as SqliteStore).db.$client;
  const row = client
    .prepare(
      `SELECT (SELECT COALESCE(SUM(size), 0) FROM blobs WHERE hash IN (
         SELECT thumb_hash FROM run_steps UNION SELECT page_hash FROM run_steps UNION SELECT actual_hash FROM run_steps
         UNION SELECT diff_hash FROM run_steps UNION SELECT screenshot_hash FROM runs)
         AND hash NOT IN (SELECT crop_hash FROM nodes WHERE crop_hash IS NOT NULL)) AS bytes,
       (SELECT COUNT(*) FROM run_steps WHERE outcome = 'ok') AS steps`,
    )
    .get() as { bytes: number; steps: number };
  return row.steps > 0 ? Math.round(row.bytes / row.steps) : 0;
}

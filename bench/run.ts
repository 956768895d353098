/**
 * The benchmark: four legacy-style apps, each recorded once, replayed with new values against a
 * plain Playwright script of the same actions, then met with every perturbation. Figures go to
 * bench/results/latest.json and are printed as a table; `--json` prints the summary as JSON on
 * the last line. Speed is measured here, never asserted in a test.
 *
 *   npm run bench -- [--quick] [--json]
 *   npm run bench -- --timing-only [--quick]   (the replay/plain pairs alone, printed, nothing written)
 */
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright';
import { launchBrowser } from '../src/browser/launch.js';
import { Rote } from '../src/rote.js';
import type { BenchApp, BenchAppSpec, PerturbationName, ValueCellName } from './apps/contract.js';
import { SPECS } from './apps/specs.js';
import { cellFrom, runBaseline, runThroughRote, type CellResult } from './cells.js';
import { measureLookup, type LookupFigures } from './lookup.js';
import { quickPlan } from './quickPlan.js';
import { checkCostsOf, summarize, type Summary } from './summary.js';
import { median, quantile, round } from './stats.js';
import { printReport } from './report.js';
import { measureBatch, type BatchFigures } from './batch.js';
import { measureReportLoad, type ReportFigures } from './reportLoad.js';

/** The report figure: a report of 1,000 runs (the figure). */
const REPORT_RUNS = 1000;

/** The batch figure: 50 rows at 1, 2 and 4 contexts at once (the figure). */
const BATCH_ROWS = 50;
const BATCH_LEVELS = [1, 2, 4] as const;

export type BenchOptions = { quick: boolean };

export type TimingPair = { app: string; replayMs: number; plainMs: number; ratio: number };

export type BenchResults = {
  measuredAt: string;
  machine: { cpus: number; cpuModel: string; memoryGiB: number; node: string; platform: string };
  command: string;
  quick: boolean;
  cells: CellResult[];
  pairs: TimingPair[];
  lookup: LookupFigures;
  bytesPerStep: { steps: number; storeBytes: number; perStep: number };
  /** Rows per minute of a batch on the demo app at 1, 2 and 4 contexts at once, and its memory. */
  batch: BatchFigures;
  /** A report of 1,000 runs: its size, and how fast headless Chromium paints its overview. */
  report: ReportFigures;
  summary: Summary;
};

type AppState = {
  spec: BenchAppSpec;
  app: BenchApp;
  rote: Rote;
  agentOnly: Rote;
  storePath: string;
  nextParams: number;
};

/** Starts the app, records the task once and measures replay against the plain script, alone on the machine. */
async function recordAndTime(browser: Browser, spec: BenchAppSpec, options: BenchOptions, storeDir: string, log: (line: string) => void) {
  const app = await spec.start();
  const storePath = join(storeDir, `${spec.name}.db`);
  const state: AppState = { spec, app, rote: await Rote.open({ store: storePath }), agentOnly: await Rote.open({ store: ':memory:' }), storePath, nextParams: 0 };
  const cells: CellResult[] = [];
  const pairs: TimingPair[] = [];
  app.reset();
  const recorded = await runThroughRote(browser, state.rote, spec, app, state.nextParams++);
  cells.push(cellFrom(spec, 'record', 1, recorded, recorded.result.agentCalls));
  log(`${spec.name}: recorded in ${recorded.result.agentCalls} agent calls, ${recorded.result.steps.length} steps`);
  // Timing pairs: the plain script and the replay, alternating, same values, measured in this run.
  const repetitions = options.quick ? 2 : 8;
  for (let repetition = 0; repetition < repetitions; repetition++) {
    const index = state.nextParams++;
    app.reset();
    const plain = await runBaseline(browser, spec, app, index);
    if (plain.problems.length > 0) throw new Error(`${spec.name}: the plain baseline failed: ${plain.problems.join('; ')}`);
    app.reset();
    const replay = await runThroughRote(browser, state.rote, spec, app, index);
    const agentCalls = repetition === 0 ? await agentOnlyCalls(browser, state, null, index) : recorded.result.agentCalls;
    const cell = cellFrom(spec, 'new-values', 1, replay, agentCalls);
    cells.push(cell);
    if (cell.status === 'replayed') pairs.push({ app: spec.name, replayMs: replay.wallMs, plainMs: plain.wallMs, ratio: replay.wallMs / plain.wallMs });
  }
  log(`${spec.name}: ${repetitions} replay/plain pairs`);
  return { state, cells, pairs };
}

/** An agent-only run of the same cell: the agent does everything, in a store that knows nothing. */
async function agentOnlyCalls(browser: Browser, state: AppState, perturbation: PerturbationName | null, index: number, valueCell?: ValueCellName): Promise<number> {
  state.app.reset();
  state.app.setPerturbation(perturbation);
  const run = await runThroughRote(browser, state.agentOnly, state.spec, state.app, index, 'record', valueCell);
  state.app.reset();
  return run.result.agentCalls;
}

/**
 * Every perturbation the app has, met twice in the full run (the second time the detour is
 * known). The quick run meets each perturbation once, on one app that has it (see quickPlan), so
 * all the apps and all the perturbations are covered in a fraction of the time.
 */
async function perturbations(browser: Browser, state: AppState, options: BenchOptions, log: (line: string) => void): Promise<CellResult[]> {
  const { spec, app } = state;
  const cells: CellResult[] = [];
  const chosen = options.quick ? (quickPlan(SPECS).get(spec.name) ?? []) : spec.perturbations;
  for (const perturbation of chosen) {
    const meetings = options.quick ? 1 : 2;
    let agentOnly: number | null = null;
    for (let meeting = 1; meeting <= meetings; meeting++) {
      const index = state.nextParams++;
      app.reset();
      app.setPerturbation(perturbation);
      const run = await runThroughRote(browser, state.rote, spec, app, index);
      agentOnly ??= await agentOnlyCalls(browser, state, perturbation, index);
      const cell = cellFrom(spec, perturbation, meeting, run, agentOnly);
      cells.push(cell);
      log(`${spec.name}: ${perturbation} #${meeting}: ${cell.status}, ${cell.agentCalls} agent calls${cell.met ? '' : ' (NOT as expected)'}`);
    }
  }
  // Value cells: no perturbation, values as users give them (each met twice in the full run, once in the quick one).
  for (const valueCell of Object.keys(spec.valueCells ?? {}) as ValueCellName[]) {
    let agentOnly: number | null = null;
    for (let meeting = 1; meeting <= (options.quick ? 1 : 2); meeting++) {
      const index = state.nextParams++;
      app.reset();
      const run = await runThroughRote(browser, state.rote, spec, app, index, 'auto', valueCell);
      agentOnly ??= await agentOnlyCalls(browser, state, null, index, valueCell);
      const cell = cellFrom(spec, valueCell, meeting, run, agentOnly);
      cells.push(cell);
      log(`${spec.name}: ${valueCell} #${meeting}: ${cell.status}, ${cell.agentCalls} agent calls${cell.met ? '' : ' (NOT as expected)'}`);
    }
  }
  return cells;
}

const OPTIONS = ['--quick', '--json', '--batch-only', '--report-only', '--timing-only'];

/**
 * The timing phase alone: each app recorded once, then its replay/plain pairs, as the full run
 * measures them, with where the replays' time went and each check's cost.
 */
async function timingOnly(options: BenchOptions, log: (line: string) => void) {
  const storeDir = mkdtempSync(join(tmpdir(), 'rote-bench-'));
  const browser = await launchBrowser();
  const cells: CellResult[] = [];
  const pairs: TimingPair[] = [];
  try {
    for (const spec of SPECS) {
      const timed = await recordAndTime(browser, spec, options, storeDir, log);
      cells.push(...timed.cells.filter((cell) => cell.cell !== 'record'));
      pairs.push(...timed.pairs);
      await timed.state.rote.close();
      await timed.state.agentOnly.close();
      await timed.state.app.close();
    }
  } finally {
    await browser.close();
    rmSync(storeDir, { recursive: true, force: true });
  }
  const checks = cells.flatMap((cell) => cell.checkMs);
  const perApp = Object.fromEntries(SPECS.map((spec) => [spec.name, round(median(pairs.filter((pair) => pair.app === spec.name).map((pair) => pair.ratio)), 2)]));
  return {
    replayOverPlain: { median: round(median(pairs.map((pair) => pair.ratio)), 2), pairs: pairs.length, perApp },
    replayedCells: `${cells.filter((cell) => cell.status === 'replayed').length} of ${cells.length}`,
    checkOverheadMs: { median: median(checks), p90: quantile(checks, 0.9), steps: checks.length },
    checkCosts: checkCostsOf(cells),
    actMs: { median: median(cells.flatMap((cell) => cell.actMs)), p90: quantile(cells.flatMap((cell) => cell.actMs), 0.9) },
  };
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  for (const arg of argv) {
    if (!OPTIONS.includes(arg)) throw new Error(`bench: unknown option ${JSON.stringify(arg)} (expected ${OPTIONS.join(', ')})`);
  }
  if (argv.includes('--timing-only')) {
    // For working on the replay's speed alone: the apps recorded once and the pairs, printed, nothing written.
    process.stdout.write(`${JSON.stringify(await timingOnly({ quick: argv.includes('--quick') }, (line) => process.stderr.write(`${line}\n`)), null, 1)}\n`);
    return;
  }
  if (argv.includes('--report-only')) {
    // For working on the report figure alone: printed, nothing written but the README's screenshots.
    const report = await measureReportLoad(REPORT_RUNS, join(process.cwd(), 'bench', 'results'), (line) => process.stderr.write(`${line}\n`));
    process.stdout.write(`${JSON.stringify(report)}\n`);
    return;
  }
  if (argv.includes('--batch-only')) {
    // For working on the batch figure alone: printed, nothing written.
    const batch = await measureBatch(argv.includes('--quick') ? 10 : BATCH_ROWS, BATCH_LEVELS, (line) => process.stderr.write(`${line}\n`));
    process.stdout.write(`${JSON.stringify(batch)}\n`);
    return;
  }
  const options: BenchOptions = { quick: argv.includes('--quick') };
  const json = argv.includes('--json');
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const storeDir = mkdtempSync(join(tmpdir(), 'rote-bench-'));
  const browser = await launchBrowser();
  const cells: CellResult[] = [];
  const pairs: TimingPair[] = [];
  let storeBytes = 0;
  let storedSteps = 0;
  const states: AppState[] = [];
  const started = Date.now();
  try {
    // Timing first, one app at a time, so the replay/plain pairs share the machine with nothing else.
    for (const spec of SPECS) {
      const timed = await recordAndTime(browser, spec, options, storeDir, log);
      states.push(timed.state);
      cells.push(...timed.cells);
      pairs.push(...timed.pairs);
    }
    log(`timing done in ${Math.round((Date.now() - started) / 1000)} s; perturbations, the apps side by side`);
    // The perturbation matrix mostly waits (check deadlines, slow pages): the apps run side by side.
    for (const result of await Promise.all(states.map((state) => perturbations(browser, state, options, log)))) cells.push(...result);
    log(`perturbations done in ${Math.round((Date.now() - started) / 1000)} s`);
  } finally {
    for (const state of states) {
      await state.rote.close();
      await state.agentOnly.close();
      await state.app.close();
      const store = await Rote.open({ store: state.storePath });
      storedSteps += await store.store.nodeCount();
      await store.close();
      storeBytes += fileBytes(state.storePath);
    }
    await browser.close();
  }
  // The batch alone on the machine, after the matrix: its rows per minute are what N contexts buy.
  const batch = await measureBatch(options.quick ? 10 : BATCH_ROWS, BATCH_LEVELS, log);
  const report = await measureReportLoad(REPORT_RUNS, join(process.cwd(), 'bench', 'results'), log);
  log('cache lookup: filling a store with 100,000 trajectories');
  const lookup = await measureLookup(100_000, options.quick ? 3 : 8, 10_000);
  log(`all done in ${Math.round((Date.now() - started) / 1000)} s`);
  rmSync(storeDir, { recursive: true, force: true });

  const results: BenchResults = {
    measuredAt: new Date().toISOString(),
    machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? 'unknown', memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version, platform: `${process.platform} ${process.arch}` },
    command: `npm run bench --${options.quick ? ' --quick' : ''}`,
    quick: options.quick,
    cells,
    pairs,
    lookup,
    bytesPerStep: { steps: storedSteps, storeBytes, perStep: storedSteps > 0 ? Math.round(storeBytes / storedSteps) : 0 },
    batch,
    report,
    summary: summarize(cells, pairs, lookup, storedSteps > 0 ? storeBytes / storedSteps : 0),
  };
  // npm runs scripts from the package root.
  const out = join(process.cwd(), 'bench', 'results');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'latest.json'), `${JSON.stringify(results, null, 2)}\n`);
  printReport(results, (line) => process.stdout.write(`${line}\n`));
  if (json) process.stdout.write(`${JSON.stringify(results.summary)}\n`);
}

/** The store's bytes on disk, its write-ahead log included. */
function fileBytes(path: string): number {
  return ['', '-wal'].reduce((total, suffix) => {
    try {
      return total + statSync(`${path}${suffix}`).size;
    } catch {
      return total;
    }
  }, 0);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});

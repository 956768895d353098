/**
 * The benchmark: three legacy-style apps, each recorded once, replayed with new values against a
 * plain Playwright script of the same actions, then met with every perturbation. Figures go to
 * bench/results/latest.json and are printed as a table; `--json` prints the summary as JSON on
 * the last line. Speed is measured here, never asserted in a test.
 *
 *   npm run bench -- [--quick] [--json]
 */
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright';
import { launchBrowser } from '../src/browser/launch.js';
import { Rote } from '../src/rote.js';
import { claimSpec } from './apps/claim/spec.js';
import type { BenchAppSpec, PerturbationName } from './apps/contract.js';
import { gridSpec } from './apps/grid/spec.js';
import { intakeSpec } from './apps/intake/spec.js';
import { cellFrom, runBaseline, runThroughRote, type CellResult } from './cells.js';
import { measureLookup, type LookupFigures } from './lookup.js';
import { summarize, type Summary } from './summary.js';
import { printReport } from './report.js';

const SPECS: BenchAppSpec[] = [intakeSpec, claimSpec, gridSpec];

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
  summary: Summary;
};

async function benchApp(browser: Browser, spec: BenchAppSpec, options: BenchOptions, storeDir: string, log: (line: string) => void) {
  const app = await spec.start();
  const cells: CellResult[] = [];
  const pairs: TimingPair[] = [];
  const storePath = join(storeDir, `${spec.name}.db`);
  const rote = await Rote.open({ store: storePath });
  const agentOnly = await Rote.open({ store: ':memory:' });
  let paramsIndex = 0;
  // An agent-only run of the same cell: the agent does everything, in a store that knows nothing.
  const agentOnlyCalls = async (perturbation: PerturbationName | null, index: number) => {
    app.reset();
    app.setPerturbation(perturbation);
    const run = await runThroughRote(browser, agentOnly, spec, app, index, 'record');
    app.reset();
    return run.result.agentCalls;
  };
  try {
    app.reset();
    const recorded = await runThroughRote(browser, rote, spec, app, paramsIndex++);
    cells.push(cellFrom(spec, 'record', 1, recorded, recorded.result.agentCalls));
    log(`${spec.name}: recorded in ${recorded.result.agentCalls} agent calls, ${recorded.result.steps.length} steps`);

    // Timing pairs: replay and plain script, alternating, same params, measured in this run.
    const repetitions = options.quick ? 3 : 8;
    for (let repetition = 0; repetition < repetitions; repetition++) {
      const index = paramsIndex++;
      app.reset();
      const plain = await runBaseline(browser, spec, app, index);
      if (plain.problems.length > 0) throw new Error(`${spec.name}: the plain baseline failed: ${plain.problems.join('; ')}`);
      app.reset();
      const replay = await runThroughRote(browser, rote, spec, app, index);
      const agentCalls = repetition === 0 ? await agentOnlyCalls(null, index) : recorded.result.agentCalls;
      const cell = cellFrom(spec, 'new-values', 1, replay, agentCalls);
      cells.push(cell);
      if (cell.status === 'replayed') pairs.push({ app: spec.name, replayMs: replay.wallMs, plainMs: plain.wallMs, ratio: replay.wallMs / plain.wallMs });
    }
    log(`${spec.name}: ${repetitions} replay/plain pairs`);

    for (const perturbation of spec.perturbations) {
      const meetings = options.quick ? 1 : 2;
      let firstCalls: number | null = null;
      for (let meeting = 1; meeting <= meetings; meeting++) {
        const index = paramsIndex++;
        app.reset();
        app.setPerturbation(perturbation);
        const run = await runThroughRote(browser, rote, spec, app, index);
        firstCalls ??= await agentOnlyCalls(perturbation, index);
        const cell = cellFrom(spec, perturbation, meeting, run, firstCalls);
        cells.push(cell);
        log(`${spec.name}: ${perturbation} #${meeting}: ${cell.status}, ${cell.agentCalls} agent calls${cell.met ? '' : ' (NOT as expected)'}`);
      }
    }
  } finally {
    await rote.close();
    await agentOnly.close();
    await app.close();
  }
  return { cells, pairs, storePath };
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  for (const arg of argv) {
    if (arg !== '--quick' && arg !== '--json') throw new Error(`bench: unknown option ${JSON.stringify(arg)} (expected --quick, --json)`);
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
  try {
    for (const spec of SPECS) {
      const result = await benchApp(browser, spec, options, storeDir, log);
      cells.push(...result.cells);
      pairs.push(...result.pairs);
      const store = await Rote.open({ store: result.storePath });
      storedSteps += store.store.nodeCount();
      await store.close();
      storeBytes += fileBytes(result.storePath);
    }
  } finally {
    await browser.close();
  }
  log('cache lookup: filling a store with 100,000 trajectories');
  const lookup = measureLookup(100_000, options.quick ? 3 : 8, options.quick ? 2_000 : 10_000);
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

/**
 * The PostgreSQL store and its workers at scale, on a private PostgreSQL 15 this benchmark starts
 * (and throws away): cache lookups and run commits with 100,000 stored trajectories, claiming a
 * job from a queue of 100,000 with rote's claim index and without it, and rows per minute through
 * 1, 2 and 4 `rote worker` processes against the demo intake app, with where the CPU went.
 * Figures go to bench/results/postgres-latest.json and are printed as a table; `--json` prints
 * them as one JSON line too. Measured, never asserted: timings here are noisy, read them as
 * medians, p99s and ratios taken in one run.
 *
 *   npm run bench:postgres -- [--quick] [--json]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store } from '../../src/store/store.js';
import { startPostgres } from '../../e2e/support/postgresServer.js';
import { measureLookup, type LookupFigures } from '../lookup.js';
import { round } from '../stats.js';
import { measureBatches } from './batches.js';
import { measureClaims } from './claims.js';
import { measureCommits } from './commits.js';
import { log } from './log.js';
import { measurePostgresLookup } from './lookup.js';
import { printTable, type CommitFigures, type PostgresScaleResults } from './results.js';
import { COMMITS_IN_FLIGHT, FULL, QUICK } from './sizes.js';

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  for (const arg of argv) if (arg !== '--quick' && arg !== '--json') throw new Error(`bench:postgres: unknown option ${JSON.stringify(arg)} (expected --quick, --json)`);
  const quick = argv.includes('--quick');
  const sizes = quick ? QUICK : FULL;
  const began = performance.now();
  const loadAvgAtStart = loadavg().map((value) => round(value, 2));
  log(`bench:postgres (${quick ? 'quick' : 'full'}); load average ${loadAvgAtStart.join(' ')}`);

  log(`sqlite: cache lookup with ${sizes.trajectories.toLocaleString('en')} trajectories`);
  const sqlite = await measureLookup(sizes.trajectories, sizes.steps, sizes.lookups);
  const server = await startPostgres({ log });
  let results: PostgresScaleResults;
  try {
    const store = await openStore(server.url);
    const extra: Store[] = [];
    let postgres: LookupFigures & { fillS: number };
    let commits: CommitFigures[];
    try {
      const measured = await measurePostgresLookup(server, store, sizes);
      postgres = measured.figures;
      log(`lookup: PostgreSQL p50 ${postgres.p50Ms} ms p99 ${postgres.p99Ms} ms; SQLite p50 ${sqlite.p50Ms} ms p99 ${sqlite.p99Ms} ms`);
      const single = await measureCommits([store], measured.stored, sizes.commits);
      for (let i = 1; i < COMMITS_IN_FLIGHT; i++) extra.push(await openStore(server.url));
      const parallel = await measureCommits([store, ...extra], measured.stored, sizes.commits);
      commits = [single, parallel];
      log(`commits: 1 in flight p50 ${single.p50Ms} ms p99 ${single.p99Ms} ms; ${COMMITS_IN_FLIGHT} in flight p50 ${parallel.p50Ms} ms p99 ${parallel.p99Ms} ms, ${parallel.commitsPerSecond}/s`);
    } finally {
      for (const opened of [store, ...extra]) await opened.close();
    }
    const queue = await measureClaims(server, server.url, sizes);
    log(`claims: ${queue.claims.map((claim) => `${claim.index} p50 ${claim.p50Ms} ms p99 ${claim.p99Ms} ms`).join('; ')}`);
    const batches = await measureBatches(server, sizes);
    results = {
      measuredAt: new Date().toISOString(),
      machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? 'unknown', memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version, platform: `${process.platform} ${process.arch}`, loadAvgAtStart },
      command: `npm run bench:postgres --${quick ? ' --quick' : ''}`,
      quick,
      wallS: Math.round((performance.now() - began) / 1000),
      lookup: { postgres, sqlite },
      commits,
      queue,
      batches,
    };
  } finally {
    await server.stop();
  }
  // npm runs scripts from the package root.
  const out = join(process.cwd(), 'bench', 'results');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'postgres-latest.json'), `${JSON.stringify(results, null, 2)}\n`);
  printTable(results, (line) => process.stdout.write(`${line}\n`));
  if (argv.includes('--json')) process.stdout.write(`${JSON.stringify(results)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});

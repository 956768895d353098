// What the PostgreSQL benchmark measured, and the table it prints.
import type { LookupFigures } from '../lookup.js';
import { quantile, round } from '../stats.js';
import { BRANCH_NODES } from './sizes.js';

export type Timing = { count: number; p50Ms: number; p99Ms: number };
export type CommitFigures = Timing & { inFlight: number; commitsPerSecond: number };
export type ClaimFigures = Timing & { index: 'rote_job_claim_idx' | 'none'; plan: string };
/** Where the CPU went while a batch ran, in CPU seconds (the machine has `cpus` cores), and how busy it was. */
export type CpuFigures = {
  busyShare: number;
  /** Seconds of the batch with every core at least 95 % busy, as a share. */
  saturatedShare: number;
  machineS: number;
  /** `rote worker` processes and their Chromium. */
  workersS: number;
  postgresS: number;
  /** The `rote run` process (in-process rows: with its Chromium). */
  roteRunS: number;
  /** This process: the intake app the rows post to, and the CPU sampling itself. */
  appS: number;
  /** Everything else on the machine meanwhile (other work, the kernel). */
  otherS: number;
};
export type BatchLevel = {
  setup: string;
  workers: number;
  concurrency: number;
  rows: number;
  replayed: number;
  /** Rows the app received exactly once, with their values. */
  rightOnServer: number;
  wallMs: number;
  runsPerMinute: number;
  cpu: CpuFigures;
};

export type PostgresScaleResults = {
  measuredAt: string;
  machine: { cpus: number; cpuModel: string; memoryGiB: number; node: string; platform: string; loadAvgAtStart: number[] };
  command: string;
  quick: boolean;
  wallS: number;
  lookup: { postgres: LookupFigures & { fillS: number }; sqlite: LookupFigures };
  commits: CommitFigures[];
  queue: { jobs: number; enqueueS: number; jobsPerSecond: number; claims: ClaimFigures[] };
  batches: BatchLevel[];
};

export function timing(values: readonly number[]): Timing {
  return { count: values.length, p50Ms: round(quantile(values, 0.5), 2), p99Ms: round(quantile(values, 0.99), 2) };
}

export function describeLevel(level: BatchLevel): string {
  return `${level.setup}: ${level.rows} rows in ${round(level.wallMs / 1000, 1)} s, ${level.runsPerMinute} runs/min, machine ${Math.round(level.cpu.busyShare * 100)} % busy`;
}

export function printTable(results: PostgresScaleResults, print: (line: string) => void): void {
  const { lookup, commits, queue, batches, machine } = results;
  const row = (cells: readonly (string | number)[], widths: readonly number[]) => cells.map((cell, i) => (i === 0 ? String(cell).padEnd(widths[i]!) : String(cell).padStart(widths[i]!))).join('  ');
  print(`PostgreSQL at scale (${results.quick ? 'quick' : 'full'} run, ${results.wallS} s; ${machine.cpus} × ${machine.cpuModel}, load average ${machine.loadAvgAtStart.join(' ')} at start)`);
  print('');
  print(`Cache lookup: task + candidates after the start and after the first node, ${lookup.postgres.lookups.toLocaleString('en')} random picks`);
  const lw = [12, 14, 10, 8, 8, 10];
  print(row(['store', 'trajectories', 'nodes', 'p50 ms', 'p99 ms', 'size MB'], lw));
  for (const [name, figures] of [['PostgreSQL', lookup.postgres], ['SQLite', lookup.sqlite]] as const) {
    print(row([name, figures.trajectories.toLocaleString('en'), figures.nodes.toLocaleString('en'), figures.p50Ms, figures.p99Ms, Math.round(figures.fileBytes / 2 ** 20)], lw));
  }
  print(`  (PostgreSQL filled in ${lookup.postgres.fillS} s through importTrajectories; p50 ratio PostgreSQL/SQLite ${round(lookup.postgres.p50Ms / lookup.sqlite.p50Ms, 1)}×)`);
  print('');
  print(`Run commit on PostgreSQL (beginRun + commitRun: ${BRANCH_NODES} new nodes, 1 crop, 1 node stat, ${BRANCH_NODES} steps), ${lookup.postgres.trajectories.toLocaleString('en')} trajectories stored`);
  const cw = [12, 8, 8, 8, 10];
  print(row(['in flight', 'commits', 'p50 ms', 'p99 ms', 'commits/s'], cw));
  for (const figures of commits) print(row([figures.inFlight, figures.count, figures.p50Ms, figures.p99Ms, figures.commitsPerSecond], cw));
  print('');
  print(`Claim one job (pg-boss fetch) from a queue of ${queue.jobs.toLocaleString('en')} (queued in ${queue.enqueueS} s, ${queue.jobsPerSecond.toLocaleString('en')} jobs/s)`);
  const qw = [20, 7, 8, 8];
  print(row(['index', 'claims', 'p50 ms', 'p99 ms', 'plan'], [...qw, 0]));
  for (const figures of queue.claims) print(`${row([figures.index, figures.count, figures.p50Ms, figures.p99Ms], qw)}  ${figures.plan}`);
  print('');
  print(`Rows of the intake demo, every one replayed (wall time of rote run --rows, start to exit); CPU seconds over the batch`);
  const bw = [34, 5, 7, 9, 6, 6, 8, 8, 8, 5, 6];
  print(row(['setup', 'rows', 'wall s', 'runs/min', 'busy', 'sat.', 'workers', 'postgres', 'rote run', 'bench', 'other'], bw));
  for (const level of batches) {
    const cpu = level.cpu;
    print(row([level.setup, level.rows, round(level.wallMs / 1000, 1), level.runsPerMinute, `${Math.round(cpu.busyShare * 100)}%`, `${Math.round(cpu.saturatedShare * 100)}%`, cpu.workersS, cpu.postgresS, cpu.roteRunS, cpu.appS, cpu.otherS], bw));
  }
  print(`  (busy: the machine's mean busy share over the batch, all ${machine.cpus} cores; sat.: share of 200 ms samples with every core ≥ 95 % busy; workers: rote worker processes and their Chromium; rote run: with its Chromium when the rows run in it; bench: the intake app and the sampling; other: CPU not ours, e.g. other work on the machine)`);
}

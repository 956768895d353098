/** How much each part of the PostgreSQL benchmark does, in the full run and in the quick one. */
export type Sizes = {
  trajectories: number;
  steps: number;
  lookups: number;
  commits: number;
  queuedJobs: number;
  claims: number;
  unindexedClaims: number;
  rows: number;
  workerLevels: readonly number[];
  inProcessLevels: readonly number[];
};

// Eight steps a trajectory, as bench/run.ts fills its SQLite lookup figure (three in the quick run).
export const FULL: Sizes = { trajectories: 100_000, steps: 8, lookups: 2_000, commits: 500, queuedJobs: 100_000, claims: 200, unindexedClaims: 30, rows: 40, workerLevels: [1, 2, 4], inProcessLevels: [1, 2] };
export const QUICK: Sizes = { trajectories: 10_000, steps: 3, lookups: 2_000, commits: 100, queuedJobs: 10_000, claims: 200, unindexedClaims: 30, rows: 12, workerLevels: [1, 2, 4], inProcessLevels: [1, 2] };

/** Commits at once in the parallel commit figure, each on a store (connection pool) of its own. */
export const COMMITS_IN_FLIGHT = 4;
/** New nodes in a run commit: the intake task's 13 steps, learned as a new branch. */
export const BRANCH_NODES = 13;

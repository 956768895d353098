// Cache lookups with many stored trajectories (the same fill and lookups as bench/lookup.ts).
import type { Store } from '../../src/store/store.js';
import type { PostgresServer } from '../../e2e/support/postgresServer.js';
import { timeLookups, type LookupFigures } from '../lookup.js';
import { quantile, round } from '../stats.js';
import { storeSyntheticTrajectories, type StoredTrajectories } from '../syntheticTrajectories.js';
import { log } from './log.js';
import type { Sizes } from './sizes.js';

export async function measurePostgresLookup(server: PostgresServer, store: Store, sizes: Sizes): Promise<{ figures: LookupFigures & { fillS: number }; stored: StoredTrajectories }> {
  const began = performance.now();
  const stored = await storeSyntheticTrajectories(store, sizes.trajectories, sizes.steps, (count) => {
    if (count % 20_000 === 0 || count === sizes.trajectories) log(`postgres: ${count.toLocaleString('en')} trajectories stored (${Math.round((performance.now() - began) / 1000)} s)`);
  });
  const fillS = round((performance.now() - began) / 1000, 1);
  // What autovacuum would have done by the time a cache is this big: the planner sees the real sizes.
  await server.query('ANALYZE');
  const timings = await timeLookups(store, stored, sizes.steps, sizes.lookups);
  const size = await server.query<{ bytes: string }>('SELECT pg_database_size(current_database()) AS bytes');
  const figures = { trajectories: sizes.trajectories, nodes: sizes.trajectories * sizes.steps, lookups: sizes.lookups, p50Ms: round(quantile(timings, 0.5), 3), p99Ms: round(quantile(timings, 0.99), 3), fileBytes: Number(size[0]?.bytes ?? 0), fillS };
  return { figures, stored };
}

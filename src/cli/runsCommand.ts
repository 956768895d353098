import { openStore } from '../store/store.js';
import { formatTable } from './table.js';

/** `rote runs`: the latest run records, newest first. */
export async function runsCommand(options: { store: string; limit: number; json?: boolean }): Promise<number> {
  const store = await openStore(options.store);
  try {
    const runs = await store.listRuns(options.limit);
    if (options.json) {
      process.stdout.write(`${JSON.stringify(runs)}\n`);
      return 0;
    }
    process.stdout.write(
      `${formatTable(
        ['run', 'started', 'status', 'cached', 'relocated', 'agent', 'calls', 'ms', 'task'],
        // The id's first 8 characters: what `rote report --run` takes (a unique prefix) and a report shows.
        runs.map((run) => [run.id.slice(0, 8), new Date(run.startedAt).toISOString(), run.status, run.cachedSteps, run.relocatedSteps, run.agentSteps, run.agentCalls, run.durationMs ?? 0, run.task]),
      )}\n`,
    );
    return 0;
  } finally {
    await store.close();
  }
}

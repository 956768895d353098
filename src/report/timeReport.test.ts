import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteStore } from '../store/sqliteStore.js';
import { ImageLinks } from './imageLinks.js';
import { overviewPage } from './overviewPage.js';
import { loadReport, type ReportModel } from './reportModel.js';
import { runPage } from './runPage.js';
import { totalsOf } from './totals.js';

/** Where a run's time went, on its page beside its duration and over the runs on the overview; nothing for a run that kept none. */
let store: SqliteStore;
beforeEach(async () => {
  store = await SqliteStore.open(':memory:');
});
afterEach(async () => {
  await store.close();
});

const time = { replayed: 1200, checks: 300, waits: 0, agent: 0, other: 100 };

async function storeRun(id: string, startedAt: number, runTime?: unknown): Promise<void> {
  await store.beginRun({ id, taskId: null, task: 'Register {{patient}}', mode: 'auto', startedAt, pid: process.pid });
  await store.commitRun({
    run: { id, taskId: null, status: 'replayed', endedAt: startedAt + 1600, durationMs: 1600, agentCalls: 0, cachedSteps: 3, relocatedSteps: 0, agentSteps: 0, modelCalls: 0, inputTokens: 0, outputTokens: 0, error: null, ...(runTime === undefined ? {} : { time: runTime }) },
  });
}

/** A page's words, its markup left out. */
const words = (page: string) => page.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

async function pageOf(model: ReportModel, id: string): Promise<string> {
  const run = model.runs.find((candidate) => candidate.id === id)!;
  return runPage(run, await ImageLinks.of(store, [run]), model.scope);
}

describe("the report's time split", () => {
  beforeEach(async () => {
    await storeRun('timed', 3000, time);
    await storeRun('before', 2000);
    // A record a newer version or a hand edit left: valid JSON, not a run's time.
    await storeRun('foreign', 1000, { replayed: 'slow' });
  });

  it("shows a run's time by part beside its duration, as a bar and in words with shares", async () => {
    const page = await pageOf(await loadReport(store, {}), 'timed');
    expect(page).toMatch(/<dt>Duration<\/dt><dd>1\.6 s<\/dd>\s*<dt>Where the time went<\/dt>/);
    expect(page).toMatch(/<div class="time-split" id="run-time"><svg class="time-bar"[^>]*>(<rect [^>]*fill="#[0-9a-f]{6}"><title>[^<]*<\/title><\/rect>){3}<\/svg>/);
    expect(words(page)).toContain('replayed steps 1.2 s (75%) · checks 300 ms (19%) · waits 0 ms (0%) · agent 0 ms (0%) · other 100 ms (6.3%)');
  });

  it('shows nothing for a run stored before its time was kept, nor for a record that is not a time', async () => {
    const model = await loadReport(store, {});
    for (const id of ['before', 'foreign']) {
      expect(model.runs.find((run) => run.id === id)?.time).toBeNull();
      const page = await pageOf(model, id);
      expect(page).toContain('<dt>Duration</dt><dd>1.6 s</dd>');
      expect(page).not.toContain('Where the time went');
      expect(page).not.toContain('id="run-time"');
    }
  });

  it('adds up the time of the runs that kept it on the overview, saying how many did', async () => {
    await storeRun('timed-again', 4000, { replayed: 800, checks: 100, waits: 900, agent: 0, other: 200 });
    const model = await loadReport(store, {});
    const page = overviewPage(model, totalsOf(model.runs));
    expect(page).toContain('id="time-totals"');
    expect(words(page)).toContain('Where the time went 3.6 s over the 2 of 4 runs that kept it.');
    expect(words(page)).toContain('replayed steps 2.0 s (56%) · checks 400 ms (11%) · waits 900 ms (25%) · agent 0 ms (0%) · other 300 ms (8.3%)');
  });

  it('leaves the overview without it where no run kept its time', async () => {
    const model = await loadReport(store, { runIds: ['before'] });
    expect(overviewPage(model, totalsOf(model.runs))).not.toContain('Where the time went');
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openStore } from '../store/store.js';
import { statsCommand } from './statsCommand.js';

/** `rote stats` says where the runs' time went: one row of seconds and shares, and the split in --json. */
describe('rote stats', () => {
  const dirs: string[] = [];
  afterEach(() => {
    vi.restoreAllMocks();
    dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true }));
  });

  /** A store of runs, each with its time or none (stored before runs kept it). */
  async function storeWith(times: (Record<string, number> | undefined)[]): Promise<string> {
    const dir = mkdtempSync(join(tmpdir(), 'rote-stats-'));
    dirs.push(dir);
    const path = join(dir, 'rote.db');
    const store = await openStore(path);
    for (const [index, time] of times.entries()) {
      const id = `run-${index}`;
      await store.beginRun({ id, taskId: null, task: 'Register {{patient}}', mode: 'auto', startedAt: 1000 + index, pid: process.pid });
      await store.commitRun({ run: { id, taskId: null, status: 'replayed', endedAt: 5000, durationMs: 1000, agentCalls: 0, cachedSteps: 2, relocatedSteps: 0, agentSteps: 0, modelCalls: 0, inputTokens: 0, outputTokens: 0, error: null, ...(time ? { time } : {}) } });
    }
    await store.close();
    return path;
  }

  async function output(run: () => Promise<number>): Promise<string> {
    let text = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      text += String(chunk);
      return true;
    });
    expect(await run()).toBe(0);
    vi.restoreAllMocks();
    return text;
  }

  it('prints where the time went over the runs that kept it, in seconds and shares', async () => {
    const path = await storeWith([{ replayed: 1500, checks: 600, waits: 300, agent: 0, other: 100 }, { replayed: 500, checks: 400, waits: 0, agent: 500, other: 100 }, undefined]);
    const text = await output(() => statsCommand({ store: path }));
    expect(text).toMatch(/^time: replayed steps \/ checks \/ waits \/ agent \/ other +2\.0 s \/ 1\.0 s \/ 0\.3 s \/ 0\.5 s \/ 0\.2 s \(50\.0% \/ 25\.0% \/ 7\.5% \/ 12\.5% \/ 5\.0%; 2 of 3 runs kept it\)$/m);
  });

  it('says so where no run kept its time', async () => {
    const path = await storeWith([undefined]);
    const text = await output(() => statsCommand({ store: path }));
    expect(text).toMatch(/^time: replayed steps \/ checks \/ waits \/ agent \/ other +- \(no run here kept its time\)$/m);
  });

  it('gives the split in the totals of --json: milliseconds and shares per part, and how many runs', async () => {
    const path = await storeWith([{ replayed: 800, checks: 200, waits: 0, agent: 0, other: 0 }]);
    const totals = JSON.parse(await output(() => statsCommand({ store: path, json: true }))) as { time: unknown };
    expect(totals.time).toEqual({ runs: 1, totalMs: 1000, ms: { replayed: 800, checks: 200, waits: 0, agent: 0, other: 0 }, share: { replayed: 0.8, checks: 0.2, waits: 0, agent: 0, other: 0 } });
  });
});

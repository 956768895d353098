import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type TestInfo } from '@playwright/test';
import type { DemoRun } from '../src/demo/runDemo.js';
import { Rote } from '../src/rote.js';
import type { StoreDialect } from '../src/store/store.js';
import { cli } from './support/cliProcess.js';
import { postgresSkipReason, startPostgres, type PostgresServer } from './support/postgresServer.js';

/**
 * The core of rote end to end on both stores, through the CLI as a user runs it: record, replay
 * with new values, a takeover at a popup and its re-join, the detour replayed (the four demo runs),
 * export and import, and a run killed midway marked interrupted. The same outcome on each store.
 */

let server: Promise<PostgresServer> | undefined;
let databases = 0;

/** A new store of the dialect: a file in the test's output folder, or a new database on this worker's PostgreSQL server. */
async function freshStore(dialect: StoreDialect, testInfo: TestInfo, name = 'rote'): Promise<string> {
  switch (dialect) {
    case 'sqlite':
      return testInfo.outputPath(`${name}.db`);
    case 'postgres':
      server ??= startPostgres();
      return (await server).createDatabase(`conformance_${process.pid}_${++databases}`);
  }
}

test.afterAll(async () => {
  if (server) await (await server).stop();
});

const lastLine = (text: string) => text.trim().split('\n').at(-1)!;

for (const dialect of ['sqlite', 'postgres'] as const) {
  test.describe(`on ${dialect}`, () => {
    const skipReason = dialect === 'postgres' ? postgresSkipReason() : undefined;
    test.skip(skipReason !== undefined, skipReason);
    test('rote demo: recorded, replayed with new values, taken over at a popup and re-joined, the detour replayed; then exported, imported and exported again unchanged', async ({}, testInfo) => {
      const store = await freshStore(dialect, testInfo);
      const demo = await cli(['demo', '--json', '--store', store]);
      expect(demo.code, demo.stderr).toBe(0);
      const runs = JSON.parse(lastLine(demo.stdout)) as DemoRun[];
      expect(runs.map((run) => [run.status, run.agentCalls > 0, run.submissionOk])).toEqual([
        ['agent', true, true],
        ['replayed', false, true],
        ['mixed', true, true],
        ['replayed', false, true],
      ]);
      expect(runs[1]!.cachedSteps).toBe(runs[0]!.agentSteps);
      expect(runs[3]!.cachedSteps).toBe(runs[0]!.agentSteps + 1);

      const tasks = JSON.parse((await cli(['tasks', '--json', '--store', store])).stdout) as { key: string; nodes: number }[];
      expect(tasks).toHaveLength(1);
      const folder = testInfo.outputPath('recording');
      const exported = await cli(['export', tasks[0]!.key, '--out', folder, '--store', store]);
      expect(exported.code, exported.stderr).toBe(0);
      const other = await freshStore(dialect, testInfo, 'imported');
      const imported = await cli(['import', folder, '--json', '--store', other]);
      expect(imported.code, imported.stderr).toBe(0);
      expect(JSON.parse(imported.stdout)).toMatchObject({ key: tasks[0]!.key, nodes: tasks[0]!.nodes, added: tasks[0]!.nodes });
      const again = testInfo.outputPath('again');
      expect((await cli(['export', tasks[0]!.key, '--out', again, '--store', other])).code).toBe(0);
      expect(readFileSync(join(again, 'recording.json'), 'utf8')).toBe(readFileSync(join(folder, 'recording.json'), 'utf8'));
    });

    test('a run killed in the middle is marked interrupted at the next open, and nothing of it is stored', async ({}, testInfo) => {
      const store = await freshStore(dialect, testInfo);
      const script = fileURLToPath(new URL('../dist/e2e/support/hangingRun.js', import.meta.url));
      const child = spawn(process.execPath, [script, store], { stdio: ['ignore', 'pipe', 'inherit'] });
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('running') && resolve());
        child.on('exit', (code) => reject(new Error(`the child exited early with ${code}`)));
      });
      const exited = new Promise((resolve) => child.on('exit', resolve));
      child.kill('SIGKILL');
      await exited;

      const rote = await Rote.open({ store });
      try {
        const [run] = await rote.store.listRuns(5);
        expect(run).toMatchObject({ status: 'interrupted', task: 'Register a patient' });
        expect(run!.error).toContain(`process ${child.pid}`);
        expect(await rote.store.taskCount()).toBe(0);
      } finally {
        await rote.close();
      }
    });
  });
}

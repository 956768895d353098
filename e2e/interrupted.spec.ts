import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Rote } from '../src/rote.js';
import { expect, test } from './fixtures.js';

const script = fileURLToPath(new URL('../dist/e2e/support/hangingRun.js', import.meta.url));

test('a run killed in the middle is marked interrupted at the next open, and the store stays consistent', async () => {
  const store = join(mkdtempSync(join(tmpdir(), 'rote-kill-')), 'rote.db');
  const child = spawn(process.execPath, [script, store], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('running') && resolve());
    child.on('exit', (code) => reject(new Error(`the child exited early with ${code}`)));
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  child.kill('SIGKILL');
  await exited;

  const rote = await Rote.open({ store });
  const [run] = await rote.store.listRuns(5);
  expect(run).toMatchObject({ status: 'interrupted', task: 'Register a patient' });
  expect(run!.error).toContain(`process ${child.pid} exited`);
  expect(await rote.store.taskCount()).toBe(0);
  await rote.close();
});

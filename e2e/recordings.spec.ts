import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { scriptedAgent } from '../src/agent/scriptedAgent.js';
import { startIntakeApp, type IntakeApp } from '../src/demo/app/server.js';
import { demoAgent } from '../src/demo/demoAgent.js';
import { submissionProblems, type PatientParams } from '../src/demo/patients.js';
import type { RunResult } from '../src/engine/runResult.js';
import { secret } from '../src/params/secret.js';
import { filesOf } from './support/folderFiles.js';
import { exportRecording } from '../src/recordings/exportRecording.js';
import { importRecording } from '../src/recordings/importRecording.js';
import { Rote } from '../src/rote.js';
import { DEMO_PATIENTS, INTAKE_TASK, expect, test } from './fixtures.js';
import { BANK_TASK, bankTest } from './support/bankApp.js';

const [first, second, third, fourth] = DEMO_PATIENTS as [PatientParams, PatientParams, PatientParams, PatientParams];

function expectSameFiles(actual: string, expected: string): void {
  const want = filesOf(expected);
  const got = filesOf(actual);
  expect([...got.keys()].sort()).toEqual([...want.keys()].sort());
  for (const [path, bytes] of want) expect(got.get(path)!.equals(bytes), `${path} differs`).toBe(true);
}

/** A run's shape: the kind and action type of each step. */
const shape = (result: RunResult) => result.steps.map((step) => `${step.kind} ${step.action.type}`);

/** Replays the intake task on `app` with a store's Rote and an agent that must never be asked. */
async function replayOn(page: Page, rote: Rote, app: IntakeApp, patient: PatientParams, task: string): Promise<{ result: RunResult; calls: number }> {
  await page.goto(app.url);
  const agent = scriptedAgent([]);
  const result = await rote.run(page, { task, params: patient, agent, checkTimeout: 2000 });
  return { result, calls: agent.calls };
}

/** The rote CLI, run from the sources. */
function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

test('export, import into an empty store, replay with new values: the same steps, no agent call, byte-identical re-exports', async ({ app, rote, recordIntake, runIntake, context }) => {
  const dir = mkdtempSync(join(tmpdir(), 'rote-recordings-'));
  const recorded = await recordIntake(first);
  expect(recorded.status).toBe('agent');
  const exported = join(dir, 'exported');
  expect(await exportRecording(rote.store, recorded.taskKey, exported)).toEqual({ nodes: recorded.steps.length, crops: expect.any(Number) });
  const file = JSON.parse(readFileSync(join(exported, 'recording.json'), 'utf8'));
  expect(file).toMatchObject({ format: 'rote-recording', version: 1, origin: app.origin, task: { template: recorded.task, startUrl: '/intake' } });
  expect(readFileSync(join(exported, 'recording.json'), 'utf8')).not.toContain(app.origin.replace('http://', '') + '/');

  // The original store's replay is the reference.
  const reference = await runIntake(second, { checkTimeout: 2000 });
  expect(reference.result.status).toBe('replayed');
  expect(submissionProblems(second, app.submissions[0])).toEqual([]);
  app.reset();

  // An empty store, the same origin: the same key, the same steps, this run's values on the server.
  const copy = await Rote.open({ store: ':memory:' });
  try {
    const imported = await importRecording(copy.store, exported);
    expect(imported).toMatchObject({ taskKey: recorded.taskKey, template: recorded.task, startUrl: `${app.origin}/intake`, nodes: recorded.steps.length, added: recorded.steps.length });
    expect(await importRecording(copy.store, exported)).toMatchObject({ taskKey: recorded.taskKey, added: 0 });
    expect(await copy.store.nodeCount()).toBe(recorded.steps.length);
    const { result, calls } = await replayOn(await context.newPage(), copy, app, third, imported.template);
    expect(result.status).toBe('replayed');
    expect(calls).toBe(0);
    expect(result.agentCalls).toBe(0);
    expect(shape(result)).toEqual(shape(reference.result));
    expect(app.submissions).toHaveLength(1);
    expect(submissionProblems(third, app.submissions[0])).toEqual([]);

    // Re-exports, from the imported store and from the original (used since), change no byte.
    await exportRecording(copy.store, imported.taskKey, join(dir, 'from-copy'));
    expectSameFiles(join(dir, 'from-copy'), exported);
    await exportRecording(rote.store, recorded.taskKey, join(dir, 'from-original'));
    expectSameFiles(join(dir, 'from-original'), exported);
  } finally {
    await copy.close();
  }

  // Another instance of the app on another port, through baseURL, in a store on disk.
  const other = await startIntakeApp();
  const moved = await Rote.open({ store: join(dir, 'moved.db') });
  try {
    expect(other.origin).not.toBe(app.origin);
    const imported = await importRecording(moved.store, exported, { baseURL: other.url });
    expect(imported.taskKey).not.toBe(recorded.taskKey);
    expect(imported.startUrl).toBe(`${other.origin}/intake`);
    const { result, calls } = await replayOn(await context.newPage(), moved, other, fourth, imported.template);
    expect(result.status).toBe('replayed');
    expect(result.taskKey).toBe(imported.taskKey);
    expect(calls).toBe(0);
    expect(shape(result)).toEqual(shape(reference.result));
    expect(submissionProblems(fourth, other.submissions[0])).toEqual([]);
    expect(app.submissions).toHaveLength(1); // nothing went to the recorded origin

    // Exported from there it is the same recording, on the other origin.
    await exportRecording(moved.store, imported.taskKey, join(dir, 'from-other'));
    const again = filesOf(join(dir, 'from-other'));
    for (const [path, bytes] of filesOf(exported)) {
      const expected = path === 'recording.json' ? Buffer.from(bytes.toString('utf8').replace(`"origin": "${app.origin}"`, `"origin": "${other.origin}"`)) : bytes;
      expect(again.get(path)!.equals(expected), `${path} differs`).toBe(true);
    }
    expect(again.size).toBe(filesOf(exported).size);
  } finally {
    await moved.close();
    await other.close();
  }
});

test('a detour the agent added (a popup) travels with the recording and replays from the imported store', async ({ app, rote, recordIntake, runIntake, context }) => {
  const dir = mkdtempSync(join(tmpdir(), 'rote-recordings-detour-'));
  await recordIntake(first);
  app.setPerturbations({ sessionPopup: true });
  const detour = await runIntake(second);
  expect(detour.result.status).toBe('mixed');
  const reference = await runIntake(third, { checkTimeout: 2000 });
  expect(reference.result.status).toBe('replayed');
  app.reset();

  const folder = join(dir, 'recording');
  await exportRecording(rote.store, detour.result.taskKey, folder);
  const nodes = (JSON.parse(readFileSync(join(folder, 'recording.json'), 'utf8')) as { nodes: { parentId: string | null; resumeAtId: string | null }[] }).nodes;
  expect(nodes.filter((node) => node.parentId === null)).toHaveLength(2);
  expect(nodes.filter((node) => node.resumeAtId === 'root')).toHaveLength(1);

  const copy = await Rote.open({ store: ':memory:' });
  try {
    const imported = await importRecording(copy.store, folder);
    app.setPerturbations({ sessionPopup: true });
    const { result, calls } = await replayOn(await context.newPage(), copy, app, fourth, imported.template);
    expect(result.status).toBe('replayed');
    expect(calls).toBe(0);
    expect(shape(result)).toEqual(shape(reference.result));
    expect(submissionProblems(fourth, app.submissions[0])).toEqual([]);
    await exportRecording(copy.store, imported.taskKey, join(dir, 'again'));
    expectSameFiles(join(dir, 'again'), folder);
  } finally {
    await copy.close();
  }
});

test('the CLI lists, exports and imports; a future version and a broken file are refused with clear messages', async ({ context }) => {
  const dir = mkdtempSync(join(tmpdir(), 'rote-recordings-cli-'));
  const storePath = join(dir, 'rote.db');
  const app = await startIntakeApp();
  const other = await startIntakeApp();
  try {
    const rote = await Rote.open({ store: storePath });
    const page = await context.newPage();
    await page.goto(app.url);
    const recorded = await rote.run(page, { task: INTAKE_TASK, params: first, agent: demoAgent(page) });
    expect(recorded.status).toBe('agent');
    await rote.close();

    const tasks = await cli(['tasks', '--store', storePath, '--json']);
    expect(tasks.code).toBe(0);
    expect(JSON.parse(tasks.stdout)).toEqual([expect.objectContaining({ key: recorded.taskKey, template: recorded.task, tags: [], nodes: recorded.steps.length })]);
    const table = await cli(['tasks', '--store', storePath]);
    expect(table.stdout).toContain(recorded.taskKey);

    const folder = join(dir, 'recordings', 'intake');
    const exported = await cli(['export', recorded.taskKey.slice(0, 8), '--out', folder, '--store', storePath]);
    expect(exported.stderr).toBe('');
    expect(exported.stdout).toContain(`Exported "${recorded.task}" (${recorded.taskKey}) to ${folder}: ${recorded.steps.length} steps`);
    const byTemplate = await cli(['export', recorded.task, '--out', join(dir, 'by-template'), '--store', storePath]);
    expect(byTemplate.code).toBe(0);
    expectSameFiles(join(dir, 'by-template'), folder);

    const unknown = await cli(['export', 'Register nobody', '--out', join(dir, 'x'), '--store', storePath]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('rote export "Register nobody": no task matches "Register nobody"; expected a task key, a unique key prefix or the exact template');
    const noStore = await cli(['tasks', '--store', join(dir, 'typo.db')]);
    expect(noStore.code).toBe(2);
    expect(noStore.stderr).toContain(`rote tasks: no store at "${join(dir, 'typo.db')}"`);
    expect(existsSync(join(dir, 'typo.db'))).toBe(false);

    const importedPath = join(dir, 'imported.db');
    const imported = await cli(['import', folder, '--store', importedPath, '--base-url', other.url, '--json']);
    expect(imported.code).toBe(0);
    const summary = JSON.parse(imported.stdout) as { key: string; template: string; startUrl: string; nodes: number; added: number };
    expect(summary).toMatchObject({ template: recorded.task, startUrl: `${other.origin}/intake`, nodes: recorded.steps.length, added: recorded.steps.length });
    const badUrl = await cli(['import', folder, '--store', importedPath, '--base-url', 'staging']);
    expect(badUrl.code).toBe(2);
    expect(badUrl.stderr).toContain(`option '--base-url <url>' argument 'staging' is invalid. expected an http(s) URL such as http://localhost:3000, got "staging"`);

    const replayer = await Rote.open({ store: importedPath });
    try {
      const { result, calls } = await replayOn(await context.newPage(), replayer, other, second, summary.template);
      expect(result.status).toBe('replayed');
      expect(result.taskKey).toBe(summary.key);
      expect(calls).toBe(0);
      expect(submissionProblems(second, other.submissions[0])).toEqual([]);
    } finally {
      await replayer.close();
    }

    // A file from a newer rote, and a broken one: refused before any store is created.
    const future = join(dir, 'future');
    cpSync(folder, future, { recursive: true });
    const futureFile = JSON.parse(readFileSync(join(future, 'recording.json'), 'utf8'));
    writeFileSync(join(future, 'recording.json'), JSON.stringify({ ...futureFile, version: 2, nodes: futureFile.nodes.map((node: object) => ({ ...node, confidence: 1 })) }));
    const refused = await cli(['import', future, '--store', join(dir, 'never.db')]);
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim()).toBe(`rote import ${JSON.stringify(future)}: recording.json has version 2; this rote reads version 1: upgrade rote`);
    const broken = join(dir, 'broken');
    cpSync(folder, broken, { recursive: true });
    writeFileSync(join(broken, 'recording.json'), readFileSync(join(folder, 'recording.json'), 'utf8').replace('"type": "type"', '"type": "typewrite"'));
    const brokenRun = await cli(['import', broken, '--store', join(dir, 'never.db')]);
    expect(brokenRun.code).toBe(2);
    expect(brokenRun.stderr).toMatch(/^rote import ".*broken": recording\.json is not valid: nodes\[1\]\.action\.type: Invalid discriminator value\. Expected 'click' \| .*, got "typewrite"\n$/);
    expect(existsSync(join(dir, 'never.db'))).toBe(false);
    // The same refusals through the API, and the store stays empty.
    const empty = await Rote.open({ store: ':memory:' });
    try {
      await expect(importRecording(empty.store, future)).rejects.toThrow(`importRecording(${JSON.stringify(future)}): recording.json has version 2; this rote reads version 1: upgrade rote`);
      await expect(importRecording(empty.store, broken)).rejects.toThrow(/nodes\[1\]\.action\.type: .*got "typewrite"/);
      expect(await empty.store.taskCount()).toBe(0);
    } finally {
      await empty.close();
    }
  } finally {
    await app.close();
    await other.close();
  }
});

bankTest('a recording of a run with a secret holds the placeholder, never the value, in any byte of any file', async ({ bank, openAccount }) => {
  const PIN = 'Zq9-pin-secret-4471';
  const dir = mkdtempSync(join(tmpdir(), 'rote-recordings-secret-'));
  const rote = await Rote.open({ store: join(dir, 'rote.db') });
  try {
    const field = (y: number) => ({ x: 130, y: y + 15 });
    const agent = scriptedAgent([
      {
        intent: 'Fill the payment',
        actions: [{ type: 'click', ...field(80) }, { type: 'type', text: '250' }, { type: 'click', ...field(130) }, { type: 'type', text: '{{pin}}' }],
      },
      { intent: 'Pay', actions: [{ type: 'click', ...field(230) }] },
      { done: true },
    ]);
    const recorded = await rote.run(await openAccount(), { task: BANK_TASK, params: { amount: '250', pin: secret(PIN) }, agent });
    expect(recorded.status).toBe('agent');
    expect(bank.payments).toEqual([{ amount: '250', pin: PIN }]);

    const folder = join(dir, 'recording');
    await exportRecording(rote.store, recorded.taskKey, folder);
    const files = filesOf(folder);
    expect(files.get('recording.json')!.toString('utf8')).toContain('"text": "{{pin}}"');
    expect(files.size).toBeGreaterThan(1); // the crops are searched too
    for (const [path, bytes] of files) {
      for (const form of [Buffer.from(PIN, 'utf8'), Buffer.from(PIN, 'utf16le'), Buffer.from(encodeURIComponent(PIN)), Buffer.from(Buffer.from(PIN).toString('base64'))]) {
        expect(bytes.includes(form), `${path} holds the secret`).toBe(false);
      }
    }
  } finally {
    await rote.close();
  }
});

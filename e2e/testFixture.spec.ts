/**
 * rote/test under the real Playwright Test runner: generated configs and specs run in a child
 * process, as Playwright tests its own fixtures.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { configHead, GeneratedProject } from './support/generatedProject.js';

type JsonAttachment = { name: string; contentType: string; path?: string; body?: string };
type JsonResult = { status: string; error?: { message?: string }; attachments: JsonAttachment[] };
type JsonSuite = { title: string; suites?: JsonSuite[]; specs: { title: string; tests: { projectName: string; results: JsonResult[] }[] }[] };

/** Every test result of a JSON report, by "project › title". */
function results(project: GeneratedProject): Map<string, JsonResult> {
  const found = new Map<string, JsonResult>();
  const visit = (suite: JsonSuite) => {
    suite.suites?.forEach(visit);
    for (const spec of suite.specs) for (const run of spec.tests) found.set(`${run.projectName} › ${spec.title}`, run.results[0]!);
  };
  (JSON.parse(project.read('report.json')) as { suites: JsonSuite[] }).suites.forEach(visit);
  return found;
}

/** An attachment's bytes: inline (base64) for a body, else the file it points at. */
function bytesOf(attachment: JsonAttachment): Buffer {
  return attachment.body !== undefined ? Buffer.from(attachment.body, 'base64') : readFileSync(attachment.path!);
}

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
let project: GeneratedProject | undefined;

test.afterEach(async ({}, testInfo) => {
  // Kept when the test failed, to look at; the path is in the error.
  if (testInfo.status === testInfo.expectedStatus) project?.remove();
  project = undefined;
});

test('the committed-recording test fails on the perturbed app in CI, naming the step, its intent and the reason, with the three images in the JSON and HTML reports', async () => {
  project = new GeneratedProject('perturbed');
  project.write(
    'playwright.config.ts',
    `${configHead(project)}
export default defineConfig<RoteTestOptions & { intakePerturbations: { sessionPopup: boolean } }>({
  testDir: '${project.repoPath('e2e')}',
  testMatch: 'recordedIntake.spec.ts',
  outputDir: './test-results',
  workers: 1,
  retries: 0,
  reporter: [['list'], ['json', { outputFile: 'report.json' }], ['html', { open: 'never', outputFolder: 'html-report' }]],
  use: { ...browser, rote: { recordings: '${project.repoPath('recordings')}' }, intakePerturbations: { sessionPopup: true } },
});
`,
  );
  const { exitCode, output } = await project.run({ CI: '1' });
  expect(exitCode, `${project.dir}\n${output}`).toBe(1);

  const [result, ...others] = [...results(project).values()];
  expect(others).toHaveLength(0);
  expect(result!.status).toBe('failed');
  const message = result!.error?.message ?? '';
  expect(message).toContain('Expected the run to be replayed from the cache, but it diverged at step 1 (Fill "First name"): ');
  expect(message).toMatch(/diverged at step 1 \(Fill "First name"\): target is now .*, expected "First name" \(textbox.*something covers it/);
  expect(message).toContain('Run status: diverged');
  expect(output).toContain('diverged at step 1 (Fill "First name")');

  const byName = new Map(result!.attachments.map((attachment) => [attachment.name, attachment]));
  const images = ['step-1-expected.png', 'step-1-actual.png', 'step-1-diff.png'].map((name) => {
    const attachment = byName.get(name);
    expect(attachment, `attachment ${name} among ${[...byName.keys()].join(', ')}`).toMatchObject({ contentType: 'image/png' });
    const bytes = bytesOf(attachment!);
    expect(bytes.subarray(0, 4).equals(PNG)).toBe(true);
    return bytes;
  });
  const [expected, actual] = images as [Buffer, Buffer, Buffer];
  expect(expected.equals(actual)).toBe(false); // the popup's overlay is in the live crop
  const summary = bytesOf(byName.get('rote-summary.txt')!).toString('utf8');
  expect(summary).toContain('step 1 (Fill "First name")');
  expect(summary).toContain('[attached: expected, actual, diff]');

  // The HTML report keeps its own copies of the attachments, under data/.
  const reportFiles = readdirSync(join(project.dir, 'html-report', 'data')).map((file) => readFileSync(join(project!.dir, 'html-report', 'data', file)));
  for (const image of images) expect(reportFiles.some((file) => file.equals(image))).toBe(true);
  expect(readFileSync(join(project.dir, 'html-report', 'index.html'), 'utf8').length).toBeGreaterThan(0);
});

test('use: { rote } in the config reaches the fixture: a store path shares the cache across tests, the default in-memory store does not, and without CI the agent is asked', async () => {
  project = new GeneratedProject('options');
  project.write(
    'playwright.config.ts',
    `${configHead(project)}
export default defineConfig<RoteTestOptions>({
  testDir: '.',
  outputDir: './test-results',
  workers: 1,
  retries: 0,
  reporter: [['list'], ['json', { outputFile: 'report.json' }]],
  use: browser,
  projects: [
    { name: 'shared store', use: { rote: { store: 'cache/rote.db' } } },
    { name: 'default store' },
  ],
});
`,
  );
  project.write(
    'intake.spec.ts',
    `import { test, expect } from 'rote/test';
import { startIntakeApp, type IntakeApp } from '${project.repoPath('src/demo/app/server.js')}';
import { demoAgent } from '${project.repoPath('src/demo/demoAgent.js')}';
import { DEMO_PATIENTS, INTAKE_TASK } from '${project.repoPath('src/demo/patients.js')}';

let app: IntakeApp;
test.beforeAll(async () => { app = await startIntakeApp(); });
test.afterAll(async () => { await app.close(); });

test('the agent does the task the first time', async ({ page, rote }) => {
  await page.goto(app.url);
  const result = await rote.run({ task: INTAKE_TASK, params: DEMO_PATIENTS[0]!, agent: demoAgent(page) });
  expect(result.status).toBe('agent');
});

test('the next test replays it from a shared store only', async ({ page, rote }, testInfo) => {
  await page.goto(app.url);
  const result = await rote.run({ task: INTAKE_TASK, params: DEMO_PATIENTS[1]! });
  if (testInfo.project.name === 'shared store') expect(result).toBeReplayed();
  else expect(result).not.toBeReplayed();
});

test('a replay-only run that is not replayed fails the test even when the test never asserts on it', async ({ page, rote }) => {
  test.fail();
  await page.goto(app.url);
  await rote.run({ task: 'A task nobody recorded', mode: 'replay-only' });
});
`,
  );
  const { exitCode, output } = await project.run({ CI: undefined });
  expect(exitCode, `${project.dir}\n${output}`).toBe(0);
  const statuses = Object.fromEntries([...results(project)].map(([name, result]) => [name, result.status]));
  expect(statuses).toEqual({
    'shared store › the agent does the task the first time': 'passed',
    'shared store › the next test replays it from a shared store only': 'passed',
    'default store › the agent does the task the first time': 'passed',
    'default store › the next test replays it from a shared store only': 'passed',
    // Failed as the test declared (test.fail()), so the run itself passed.
    'shared store › a replay-only run that is not replayed fails the test even when the test never asserts on it': 'failed',
    'default store › a replay-only run that is not replayed fails the test even when the test never asserts on it': 'failed',
  });
  const silent = results(project).get('default store › a replay-only run that is not replayed fails the test even when the test never asserts on it');
  expect(silent?.error?.message).toContain('rote.run("A task nobody recorded") was not replayed from the cache');
  expect(readdirSync(join(project.dir, 'cache'))).toContain('rote.db');
});

import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from '@playwright/test';
import { launchBrowser } from '../src/browser/launch.js';
import { recordCommand, type RecordCommandOptions, type RecordIo } from '../src/cli/recordCommand.js';
import { RoteError } from '../src/errors/roteError.js';
import { Rote } from '../src/rote.js';
import { expect, test } from './fixtures.js';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The command's process, in memory: what it prints, the browser it launched, Enter and Ctrl+C. */
function fakeIo(overrides: Partial<RecordIo> = {}) {
  const printed = { out: '', err: '' };
  const launched: Browser[] = [];
  const input = new PassThrough();
  let interrupt: (() => void) | undefined;
  const io: RecordIo = {
    env: { DISPLAY: ':0' },
    platform: 'linux',
    out: (text) => void (printed.out += text),
    err: (text) => void (printed.err += text),
    launch: async (options) => {
      const browser = await launchBrowser({ headless: options.headless });
      launched.push(browser);
      return browser;
    },
    input,
    onInterrupt: (handler) => {
      interrupt = handler;
      return () => (interrupt = undefined);
    },
    ...overrides,
  };
  return {
    io,
    printed,
    launched,
    pressEnter: () => input.write('\n'),
    pressCtrlC: () => interrupt?.(),
    /** The page the command opened, once rote waits for the person on it. */
    recordingPage: async (): Promise<Page> => {
      // Chromium's start on a busy machine can take several seconds.
      await expect.poll(() => launched[0]?.contexts()[0]?.pages().length ?? 0, { timeout: 30_000 }).toBe(1);
      const page = launched[0]!.contexts()[0]!.pages()[0]!;
      await expect(finishControl(page)).toBeVisible({ timeout: 30_000 });
      return page;
    },
  };
}

const finishControl = (page: Page) => page.getByRole('button', { name: 'Finish recording' });

async function clickCentre(page: Page, label: string): Promise<void> {
  const box = (await page.getByLabel(label).boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}

const storePath = () => join(mkdtempSync(join(tmpdir(), 'rote-record-')), 'rote.db');

test.describe('rote record checks its arguments before a browser opens', () => {
  const noLaunch = { launch: async () => Promise.reject(new Error('the browser must not be launched')) };
  const cases: { name: string; options: Partial<RecordCommandOptions>; io?: Partial<RecordIo>; message: string }[] = [
    { name: 'a URL that is not one', options: { url: 'intake-form' }, message: '--url: expected an absolute http(s) or file URL, such as https://example.com/form, got "intake-form"' },
    { name: 'a URL of another scheme', options: { url: 'javascript:alert(1)' }, message: '--url: expected an http(s) or file URL' },
    { name: '--param without =', options: { param: ['firstName'] }, message: '--param "firstName": expected name=value, such as --param firstName=Ada' },
    { name: '--param with a bad name', options: { param: ['first name=Ada'] }, message: 'the name "first name" must be letters, digits and _' },
    { name: 'a --secret naming no --param', options: { param: ['user=ada'], secret: ['password'] }, message: '--secret "password" names no parameter (the params are user); give its value with --param password=VALUE' },
    { name: 'no task', options: { task: '  ' }, message: '--task is required' },
    { name: 'no display for a window', options: {}, io: { env: {} }, message: 'no display to open a browser window on (neither DISPLAY nor WAYLAND_DISPLAY is set)' },
  ];
  for (const { name, options, io, message } of cases) {
    test(name, async () => {
      const fake = fakeIo({ ...noLaunch, ...io });
      const code = await recordCommand({ url: 'http://127.0.0.1:9/intake', task: 'Register a patient', store: storePath(), ...options }, fake.io);
      expect(code).toBe(2);
      expect(fake.printed.err).toContain(`rote record: `);
      expect(fake.printed.err).toContain(message);
      expect(fake.printed.out).toBe('');
    });
  }

  test('all problems at once, through the real command line', async () => {
    const { stderr, code } = await new Promise<{ stderr: string; code: number | null }>((resolve) => {
      const child = execFile(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'record', '--url', 'nope', '--param', 'firstName', '--secret', 'pin'], { cwd: root, env: { ...process.env, DISPLAY: '' } }, (_error, _stdout, stderr) =>
        resolve({ stderr, code: child.exitCode }),
      );
    });
    expect(code).toBe(2);
    expect(stderr).toContain('--url: expected an absolute http(s) or file URL');
    expect(stderr).toContain('--task is required');
    expect(stderr).toContain('--param "firstName": expected name=value');
    expect(stderr).toContain('--secret "pin" names no parameter');
  });
});

test("a failure after the arguments were checked prints the error's message (a rote error's too), exit code 1", async () => {
  for (const thrown of [new RoteError('invalid-argument', 'no browser for this machine'), new Error('no browser for this machine')]) {
    const fake = fakeIo({ launch: async () => Promise.reject(thrown) });
    const code = await recordCommand({ url: 'http://127.0.0.1:9/intake', task: 'Register a patient', store: storePath(), headless: true }, fake.io);
    expect(code).toBe(1);
    expect(fake.printed.err).toContain('rote record: no browser for this machine');
  }
});

test('rote record --headless prints each step as it is recorded and the result; Enter finishes; a secret is never shown or stored', async ({ app }) => {
  const store = storePath();
  const fake = fakeIo();
  const command = recordCommand(
    { url: app.url, task: 'Register patient Ada Lovelace', param: ['firstName=Ada', 'lastName=Lovelace'], secret: ['lastName'], store, headless: true },
    fake.io,
  );
  const page = await fake.recordingPage();
  await clickCentre(page, 'First name');
  await page.keyboard.type('Ada');
  await clickCentre(page, 'Last name');
  await page.keyboard.type('Lovelace');
  await page.keyboard.press('Enter');
  await expect(page.locator('#confirmation')).toBeVisible();
  await expect(finishControl(page)).toBeVisible();
  fake.pressEnter();
  const code = await command;
  expect(code, fake.printed.err).toBe(0);
  expect(app.submissions).toHaveLength(1);
  expect(app.submissions[0]!.fields).toMatchObject({ first_name: 'Ada', last_name: 'Lovelace' });
  const out = fake.printed.out;
  expect(out).toContain(`rote record: "Register patient Ada ********", starting at ${app.url}`);
  expect(out).toContain('Parameters: firstName="Ada", lastName=******** (secret)');
  expect(out).toMatch(/ {2}1\. Click "First name": click \(\d+, \d+\)\n/);
  expect(out).toContain('  2. Type into "First name": type "Ada"\n');
  expect(out).toContain('  4. Type into "Last name": type "********"\n');
  expect(out).toContain('  5. Press Enter in "Last name": keypress ENTER\n');
  expect(out).toMatch(/Recorded 5 steps in [\d.]+ s: status agent\./);
  const key = /Task key: (\S+)/.exec(out)?.[1];
  expect(key).toBeTruthy();
  expect(out).not.toContain('Lovelace');
  expect(fake.printed.err).not.toContain('Lovelace');

  const rote = await Rote.open({ store });
  try {
    expect(await rote.store.getTask(key!)).toBeDefined();
    const [run] = await rote.store.listRuns(1);
    expect(run).toMatchObject({ status: 'agent', agentSteps: 5 });
    const steps = JSON.stringify(await rote.store.runSteps(run!.id));
    expect(steps).toContain('{{lastName}}');
    expect(steps).not.toContain('Lovelace');
  } finally {
    await rote.close();
  }
  expect(fake.launched[0]!.isConnected()).toBe(false);
});

test('Ctrl+C aborts rote record: exit code 130, nothing stored, the browser closed', async ({ app }) => {
  const store = storePath();
  const fake = fakeIo();
  const command = recordCommand({ url: app.url, task: 'Register patient Ada', param: ['firstName=Ada'], store, headless: true }, fake.io);
  const page = await fake.recordingPage();
  await clickCentre(page, 'First name');
  await page.keyboard.type('Ada');
  await expect(finishControl(page)).toBeVisible();
  fake.pressCtrlC();
  const code = await command;

  expect(code).toBe(130);
  expect(fake.printed.err).toContain('Recording aborted; nothing was stored.');
  expect(fake.launched[0]!.isConnected()).toBe(false);
  const rote = await Rote.open({ store });
  try {
    expect(await rote.store.taskCount()).toBe(0);
    // Stopped by the person (Ctrl+C): recorded as interrupted, not as a failure of the page or the agent.
    expect((await rote.store.listRuns(1))[0]).toMatchObject({ status: 'interrupted' });
  } finally {
    await rote.close();
  }
});

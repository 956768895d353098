import { mkdtempSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scriptedAgent } from '../src/agent/scriptedAgent.js';
import { RoteError } from '../src/errors/roteError.js';
import { Rote } from '../src/rote.js';
import { DEMO_PATIENTS, INTAKE_TASK, expect, test } from './fixtures.js';

test('a task template naming a parameter that was not given fails before any action', async ({ rote, openForm }) => {
  const page = await openForm();
  const agent = scriptedAgent([]);
  const error = await rote.run(page, { task: 'Register {{firstName}} {{lastName}}', params: { firstName: 'Ada' }, agent }).catch((e: unknown) => e);
  expect(RoteError.isInstance(error)).toBe(true);
  expect((error as Error).message).toBe('rote.run("Register {{firstName}} {{lastName}}"): the task names {{lastName}}, but params has no lastName (given: firstName)');
  expect(agent.calls).toBe(0);
  expect(await rote.store.listRuns(5)).toHaveLength(0);
});

test('a recorded trajectory using a parameter that was not given fails before any action', async ({ app, recordIntake, rote, openForm }) => {
  await recordIntake(DEMO_PATIENTS[0]);
  const { notes: _notes, ...withoutNotes } = DEMO_PATIENTS[1]!;
  const page = await openForm();
  const error = await rote.run(page, { task: INTAKE_TASK, params: withoutNotes }).catch((e: unknown) => e);
  expect((error as Error).message).toContain('params.notes is required: the recorded trajectory types or chooses {{notes}}');
  expect(await page.locator('input[name=first_name]').inputValue()).toBe('');
  expect(app.submissions).toHaveLength(0);
});

test('a parameter of the wrong type is named with its value and what was expected', async ({ rote, openForm }) => {
  const page = await openForm();
  const error = await rote.run(page, { task: INTAKE_TASK, params: { firstName: 'Ada', lastName: 'Lovelace', dob: new Date(0) as never } }).catch((e: unknown) => e);
  expect((error as Error).message).toBe(`rote.run("${INTAKE_TASK}"): params.dob must be a string, number or boolean (declare it with param.date() to pass a Date), got a Date (1970-01-01T00:00:00.000Z)`);
  const badMode = await rote.run(page, { task: INTAKE_TASK, mode: 'fast' as never }).catch((e: unknown) => e);
  expect((badMode as Error).message).toMatch(/^rote\.run\(".*"\): options\.mode .*"auto".*, got "fast"$/);
  expect(await rote.store.listRuns(5)).toHaveLength(0);
});

test('an unwritable store path is a clear error at open', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rote-ro-'));
  chmodSync(dir, 0o500);
  const readOnly = await Rote.open({ store: join(dir, 'sub', 'rote.db') }).catch((e: unknown) => e);
  const isRoot = process.getuid?.() === 0;
  // root writes anywhere a mode allows, so a path under a regular file stands in for "unwritable" too.
  const underFile = await Rote.open({ store: '/etc/hostname/rote.db' }).catch((e: unknown) => e);
  expect(RoteError.isInstance(underFile)).toBe(true);
  expect((underFile as Error).message).toContain('/etc/hostname/rote.db');
  if (!isRoot) expect((readOnly as Error).message).toContain(dir);
  else if (!RoteError.isInstance(readOnly)) await (readOnly as Rote).close();
});

test('a closed page is a clear error before any action', async ({ rote, openForm }) => {
  const page = await openForm();
  await page.close();
  const error = await rote.run(page, { task: INTAKE_TASK, params: DEMO_PATIENTS[0] }).catch((e: unknown) => e);
  expect((error as Error).message).toBe(`rote.run("${INTAKE_TASK}"): the page is closed; open a new page before running`);
  expect(await rote.store.listRuns(5)).toHaveLength(0);
});

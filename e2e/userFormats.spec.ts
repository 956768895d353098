import { expect } from '@playwright/test';
import type { RunResult } from '../src/engine/runResult.js';
import { appTest } from './support/appTest.js';
import { startFormatsApp } from './support/formatsApp.js';

/**
 * Parameters as users have them: the task's key must not move when only the values do, and
 * values written in the user's own formats must replay into native and text inputs the way each
 * field took them. Every replay is checked on the server and must make zero agent calls.
 */
const test = appTest(startFormatsApp);

function replayedFromCache(result: RunResult, what: string): void {
  expect(result.status, `${what}: ${result.error ?? ''} ${result.divergences.map((d) => d.reason).join('; ')}`).toBe('replayed');
  expect(result.agentCalls, what).toBe(0);
}

test('a long free-text value whose words also stand in the task keeps one key: every new comment replays', async ({ app, runOn, rote }) => {
  const task = 'Fill in the "Contact us" form with the given values and submit it.';
  const comments = [
    'I would like the brochure and the price list for the form you sent',
    'Please call me back in the afternoon, the form did not submit',
    'Can you send the given values again and the invoice with it',
    'the',
  ];
  const recorded = await runOn('/contact', { task, params: { name: 'Ada Byron', comment: comments[0]! } });
  expect(recorded.status, recorded.error).toBe('agent');
  for (const [i, comment] of comments.slice(1).entries()) {
    const result = await runOn('/contact', { task, params: { name: `Person ${i}`, comment } });
    replayedFromCache(result, comment);
    expect(app.submissions.at(-1)!.fields).toEqual({ name: `Person ${i}`, comment });
  }
  expect(await rote.store.listTasks()).toHaveLength(1);
});

test('one- and two-character values quoted in the task are parameters of one key', async ({ app, runOn, rote }) => {
  const task = (username: string, password: string) => `Enter the username "${username}" and the password "${password}" and log in`;
  const recorded = await runOn('/login', { task: task('vina', 'US'), params: { username: 'vina', password: 'US' } });
  expect(recorded.status, recorded.error).toBe('agent');
  for (const [username, password] of [['otto', 'q'], ['x', 'ab'], ['Al', '7']] as const) {
    const result = await runOn('/login', { task: task(username, password), params: { username, password } });
    replayedFromCache(result, `${username}/${password}`);
    expect(app.submissions.at(-1)!.fields).toEqual({ username, password });
  }
  expect((await rote.store.listTasks()).map((row) => row.taskTemplate)).toEqual(['Enter the username "{{username}}" and the password "{{password}}" and log in']);
});

test('dates and times given in the user’s formats replay into native inputs; yes/no and option labels bind', async ({ app, runOn, rote }) => {
  const task = 'Book the room';
  const recorded = await runOn('/booking', { task, params: { date: '10/11/2011', time: '8:04 PM', arrival: '15.01.2024', newsletter: 'on', reminders: '1', country: 'Germany' } });
  expect(recorded.status, recorded.error).toBe('agent');
  expect(app.submissions.at(-1)!.fields).toEqual({ date: '2011-10-11', time: '20:04', arrival: '2024-01-15', newsletter: 'Y', reminders: 'yes', country: 'DE' });

  const rows = [
    { params: { date: '3/5/2024', time: '10:56 AM', arrival: '05.03.2024', newsletter: 'false', reminders: '0', country: 'France' }, want: { date: '2024-03-05', time: '10:56', arrival: '2024-03-05', newsletter: 'N', country: 'FR' } },
    { params: { date: '12/31/1999', time: '12:05 AM', arrival: '31.12.1999', newsletter: 'Yes', reminders: 'true', country: 'portugal' }, want: { date: '1999-12-31', time: '00:05', arrival: '1999-12-31', newsletter: 'Y', reminders: 'yes', country: 'PT' } },
    { params: { date: '2024-02-29', time: '20:04', arrival: '1.2.2023', newsletter: 'no', reminders: 'off', country: 'United States' }, want: { date: '2024-02-29', time: '20:04', arrival: '2023-02-01', newsletter: 'N', country: 'US' } },
  ];
  for (const row of rows) {
    const result = await runOn('/booking', { task, params: row.params });
    replayedFromCache(result, JSON.stringify(row.params));
    expect(app.submissions.at(-1)!.fields).toEqual(row.want);
  }
  // What the recording learned: each value's reading, kept for the next run's checks.
  expect((await rote.store.listTasks())[0]!.paramSchema).toMatchObject({
    date: { type: 'date', given: 'date:MM/DD/YYYY' },
    time: { type: 'time', given: 'time:h:mm A' },
    arrival: { type: 'date', given: 'date:DD.MM.YYYY' },
    newsletter: { type: 'boolean' },
  });

  // A value that cannot be read the learned way: one error before any action, naming each.
  const before = app.submissions.length;
  const refused = runOn('/booking', { task, params: { date: '31/12/2024', time: '25:00', arrival: '15.01.2024', newsletter: 'maybe', reminders: '1', country: 'France' } });
  await expect(refused).rejects.toThrow(/params\.date must be a date as MM\/DD\/YYYY \(e\.g\. "12\/31\/2024"\), the way the recording was given it, or as YYYY-MM-DD, got "31\/12\/2024"/);
  await expect(refused).rejects.toThrow(/params\.time must be a time as h:mm A .* got "25:00"/);
  await expect(refused).rejects.toThrow(/params\.newsletter must be a boolean .* got "maybe"/);
  expect(app.submissions).toHaveLength(before);
});

test('values typed into text fields in another format than given replay in that format', async ({ app, runOn }) => {
  const task = 'Enter the payment order';
  const recorded = await runOn('/legacy', { task, params: { start: '2024/01/15', due: 'Jan 5, 2024', opening: '20:04', amount: '1,234.50' } });
  expect(recorded.status, recorded.error).toBe('agent');
  expect(app.submissions.at(-1)!.fields).toEqual({ start: '01/15/2024', due: '05.01.2024', opening: '8:04 PM', amount: '1234.50' });
  const rows = [
    { params: { start: '2023/12/02', due: 'December 24, 2023', opening: '09:05', amount: '12,000' }, want: { start: '12/02/2023', due: '24.12.2023', opening: '9:05 AM', amount: '12000' } },
    { params: { start: '1999/07/04', due: 'Mar 1, 2025', opening: '00:30', amount: '7.25' }, want: { start: '07/04/1999', due: '01.03.2025', opening: '12:30 AM', amount: '7.25' } },
  ];
  for (const row of rows) {
    const result = await runOn('/legacy', { task, params: row.params });
    replayedFromCache(result, JSON.stringify(row.params));
    expect(app.submissions.at(-1)!.fields).toEqual(row.want);
  }
});

test('a date whose reading the recording cannot prove stays literal: another date hands over, never typed wrong', async ({ app, runOn }) => {
  const task = 'Book the room';
  const fixed = { time: '8:04 PM', arrival: '15.01.2024', newsletter: 'on', reminders: '1', country: 'Germany' };
  // 05/05/2024 reads the same month-first and day-first: nothing proves which the user meant.
  const recorded = await runOn('/booking', { task, params: { ...fixed, date: '05/05/2024' } });
  expect(recorded.status, recorded.error).toBe('agent');
  const other = await runOn('/booking', { task, params: { ...fixed, date: '06/07/2024' }, mode: 'replay-only' });
  expect(other.status).toBe('diverged');
  expect(app.submissions).toHaveLength(1);
  const handed = await runOn('/booking', { task, params: { ...fixed, date: '06/07/2024' } });
  expect(handed.status).toBe('mixed');
  expect(app.submissions.at(-1)!.fields.date).toBe('2024-06-07');
});

test('a yes/no select recorded with a value spelled like its option still follows the next spelling; a value it has no option for hands over', async ({ app, runOn }) => {
  const task = 'Book the room';
  const fixed = { date: '10/21/2011', time: '8:04 PM', arrival: '15.01.2024', reminders: '1', country: 'Germany' };
  const recorded = await runOn('/booking', { task, params: { ...fixed, newsletter: 'No' } });
  expect(recorded.status, recorded.error).toBe('agent');
  const replayed = await runOn('/booking', { task, params: { ...fixed, newsletter: 'true' } });
  replayedFromCache(replayed, 'newsletter true');
  expect(app.submissions.at(-1)!.fields.newsletter).toBe('Y');
  // "Germany" was chosen by its label; a country the select does not list is not typed blindly.
  const unknown = await runOn('/booking', { task, params: { ...fixed, newsletter: 'no', country: 'Atlantis' }, mode: 'replay-only' });
  expect(unknown.status).toBe('diverged');
  expect(unknown.divergences[0]?.reason).toContain('the select has no option for {{country}}');
  expect(app.submissions).toHaveLength(2);
});

import { expect } from '@playwright/test';
import type { RunResult } from '../src/engine/runResult.js';
import { secret } from '../src/params/secret.js';
import { appTest } from './support/appTest.js';
import { startPartsApp } from './support/partsApp.js';

/**
 * A value that reaches the page in pieces or among look-alikes must never be replayed wrong: the
 * old piece of a date, the option that only folds like the wanted one, a PIN spliced into a date
 * it happened to stand in. Every submission is checked on the server; where rote cannot show a
 * cached step right, it hands over (auto) or stops before acting (replay-only).
 */
const test = appTest(startPartsApp);

function why(result: RunResult): string {
  return `${result.status}: ${result.error ?? ''} ${result.divergences.map((d) => d.reason).join('; ')}`;
}

test('blood groups that fold alike (A+ and A-) are chosen exactly, never by a units count equal to an option code, and a spelling that fits both hands over', async ({ app, runOn }) => {
  const task = 'Record the blood group of the patient';
  // The options' hidden codes are 1 to 8: A+ is code 1, as the units are here. The label binds, not the code.
  const recorded = await runOn('/blood', { task, params: { patient: 'Ann Lee', bloodGroup: 'A+', units: '1' } });
  expect(recorded.status, why(recorded)).toBe('agent');
  for (const [patient, bloodGroup, units] of [['Bo Chan', 'A-', '1'], ['Cy Diaz', 'A+', '2'], ['Di Fox', 'ab-', '4'], ['Ed Gray', 'B-', '3']] as const) {
    const result = await runOn('/blood', { task, params: { patient, bloodGroup, units } });
    expect(result.status, why(result)).toBe('replayed');
    expect(app.submissions.at(-1)!.fields).toEqual({ patient, group: bloodGroup.toUpperCase(), units });
  }
  // A typographic minus folds like a plus: no option is named exactly, so the cache does not choose.
  const before = app.submissions.length;
  const unsure = await runOn('/blood', { task, params: { patient: 'Fay Hu', bloodGroup: 'B\u2212', units: '1' }, mode: 'replay-only' });
  expect(unsure.status).toBe('diverged');
  expect(unsure.divergences[0]?.reason).toContain('several options match');
  expect(app.submissions).toHaveLength(before);
  const handed = await runOn('/blood', { task, params: { patient: 'Fay Hu', bloodGroup: 'B\u2212', units: '1' } });
  expect(handed.status, why(handed)).toBe('mixed');
  expect(app.submissions.at(-1)!.fields).toEqual({ patient: 'Fay Hu', group: 'B-', units: '1' });
});

test('a quantity of 1 that a delivery date happens to hold a piece of is no piece: every new date replays', async ({ app, runOn }) => {
  const task = 'Order the item for delivery';
  const recorded = await runOn('/order', { task, params: { item: 'Gauze', delivery: '2024-01-15' } });
  expect(recorded.status, why(recorded)).toBe('agent');
  for (const [item, delivery] of [['Tape', '2024-03-05'], ['Masks', '2025-11-30'], ['Gloves', '2024-01-01']] as const) {
    const result = await runOn('/order', { task, params: { item, delivery } });
    expect(result.status, why(result)).toBe('replayed');
    expect(app.submissions.at(-1)!.fields).toEqual({ item, quantity: '1', delivery });
  }
});

test('a date of birth split into a month select and day and year boxes binds part by part; a time split into text and AM/PM never keeps the old piece', async ({ app, runOn }) => {
  const task = 'Book a clinic visit for the patient';
  const recorded = await runOn('/visit', { task, params: { patient: 'Ann Lee', dob: '10/11/2011', at: '8:04 PM' } });
  expect(recorded.status, why(recorded)).toBe('agent');
  expect(app.submissions.at(-1)!.fields).toEqual({ patient: 'Ann Lee', month: 'October', day: '11', year: '2011', time: '8:04', ampm: 'PM' });

  // The select offers the twelve months, the boxes are named DD and YYYY: each holds its part of the
  // date, read month first (October 11 told it), so every new date is replayed from the cache.
  for (const [patient, dob, want] of [
    ['Bo Chan', '10/11/2011', { month: 'October', day: '11', year: '2011' }],
    ['Cy Diaz', '3/5/2024', { month: 'March', day: '5', year: '2024' }],
    ['Di Fox', '12/31/1999', { month: 'December', day: '31', year: '1999' }],
  ] as const) {
    const result = await runOn('/visit', { task, params: { patient, dob, at: '8:04 PM' } });
    expect(result.status, why(result)).toBe('replayed');
    expect(result.agentCalls).toBe(0);
    expect(app.submissions.at(-1)!.fields).toEqual({ patient, ...want, time: '8:04', ampm: 'PM' });
  }

  // Another time: "8:04" and PM are pieces no format states; replay-only stops before one would be replayed.
  const before = app.submissions.length;
  const stopped = await runOn('/visit', { task, params: { patient: 'Cy Diaz', dob: '10/11/2011', at: '9:15 AM' }, mode: 'replay-only' });
  expect(stopped.status).toBe('diverged');
  expect(app.submissions).toHaveLength(before);

  // In auto mode the agent takes the pieces over, and what is submitted is this run's date and time.
  const rows = [
    { params: { patient: 'Ed Gray', dob: '7/4/1990', at: '9:15 AM' }, want: { month: 'July', day: '4', year: '1990', time: '9:15', ampm: 'AM' } },
    { params: { patient: 'Fay Hu', dob: '12/31/1999', at: '11:30 PM' }, want: { month: 'December', day: '31', year: '1999', time: '11:30', ampm: 'PM' } },
  ];
  for (const row of rows) {
    const result = await runOn('/visit', { task, params: row.params });
    expect(['mixed', 'agent', 'replayed'], why(result)).toContain(result.status);
    expect(app.submissions.at(-1)!.fields).toEqual({ patient: row.params.patient, ...row.want });
  }
});

test('a count select with 0 and 1 among 2 and 3 is a count, not a yes/no: every count replays', async ({ app, runOn }) => {
  const task = 'Register the household';
  const recorded = await runOn('/household', { task, params: { applicant: 'Ann Lee', children: '1' } });
  expect(recorded.status, why(recorded)).toBe('agent');
  for (const children of ['2', '0', '3', '1']) {
    const result = await runOn('/household', { task, params: { applicant: `Applicant ${children}`, children } });
    expect(result.status, why(result)).toBe('replayed');
    expect(app.submissions.at(-1)!.fields).toEqual({ applicant: `Applicant ${children}`, children });
  }
});

test('a PIN that stands inside a date the form always gets is never spliced into it on replay', async ({ app, runOn }) => {
  const task = 'Request access';
  const recorded = await runOn('/access', { task, params: { pin: secret('2024') } });
  expect(recorded.status, why(recorded)).toBe('agent');
  expect(app.submissions.at(-1)!.fields).toEqual({ pin: '2024', from: '2024-06-01', reference: 'REF-2024-06' });
  // Nothing proves the 2024 of the date was the PIN: the cached step is not replayed with 7777 spliced in.
  const stopped = await runOn('/access', { task, params: { pin: secret('7777') }, mode: 'replay-only' });
  expect(stopped.status, why(stopped)).toBe('diverged');
  expect(app.submissions).toHaveLength(1);
  const handed = await runOn('/access', { task, params: { pin: secret('7777') } });
  expect(handed.status, why(handed)).toBe('mixed');
  expect(app.submissions.at(-1)!.fields).toEqual({ pin: '7777', from: '2024-06-01', reference: 'REF-2024-06' });
  // The agent's step holds no PIN: it is replayed for every PIN from now on, the date as it was.
  for (const pin of ['1999', '2024', '0601']) {
    const result = await runOn('/access', { task, params: { pin: secret(pin) } });
    expect(result.status, why(result)).toBe('replayed');
    expect(app.submissions.at(-1)!.fields).toEqual({ pin, from: '2024-06-01', reference: 'REF-2024-06' });
  }
});

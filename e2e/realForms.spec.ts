import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from '@playwright/test';
import type { RunResult } from '../src/engine/runResult.js';
import { writeReport } from '../src/report/writeReport.js';
import { appTest } from './support/appTest.js';
import { startFormatsApp } from './support/formatsApp.js';

/**
 * Forms as real ones are filled: dates typed into native date fields the way Chromium takes keys
 * (08/29/2020) while the user gave 2020/08/29, times as 2:30 PM into a time field, a text field
 * with a calendar typed as given; and a long form where one field cannot be replayed, whose
 * takeover must cost that field alone.
 */
const test = appTest(startFormatsApp);

function replayedFromCache(result: RunResult, what: string): void {
  expect(result.status, `${what}: ${result.error ?? ''} ${result.divergences.map((d) => d.reason).join('; ')}`).toBe('replayed');
  expect(result.agentCalls, what).toBe(0);
}

type Visit = { patient: string; visitDate: string; visitTime: string; followUp: string; checkIn: string; room: string };
type Want = { visitDate: string; visitTime: string; checkIn: string };

/** Each page takes dates and times in one user format; the server gets ISO from the native fields and the picker's text as typed. */
const FORMATS: { page: string; rows: [Visit, Want][] }[] = [
  {
    page: '/visit-ymd',
    rows: [
      [{ patient: 'Ada Byron', visitDate: '2020/08/29', visitTime: '2:30 PM', followUp: '2020/09/14', checkIn: '2020/09/14 8:15 AM', room: '12' }, { visitDate: '2020-08-29', visitTime: '14:30', checkIn: '2020-09-14T08:15' }],
      [{ patient: 'Otto Lind', visitDate: '2021/03/14', visitTime: '9:05 AM', followUp: '2021/04/01', checkIn: '2021/04/01 10:30 PM', room: '3' }, { visitDate: '2021-03-14', visitTime: '09:05', checkIn: '2021-04-01T22:30' }],
      [{ patient: 'Mia Sousa', visitDate: '2019/12/01', visitTime: '12:00 PM', followUp: '2020/01/02', checkIn: '2020/01/02 12:00 PM', room: '7B' }, { visitDate: '2019-12-01', visitTime: '12:00', checkIn: '2020-01-02T12:00' }],
      [{ patient: 'Li Wei', visitDate: '2024/02/29', visitTime: '11:45 PM', followUp: '2024/03/30', checkIn: '2024/03/30 1:05 AM', room: '1' }, { visitDate: '2024-02-29', visitTime: '23:45', checkIn: '2024-03-30T01:05' }],
      [{ patient: 'Noor Aziz', visitDate: '1999/07/04', visitTime: '12:15 AM', followUp: '1999/07/05', checkIn: '1999/07/05 11:59 PM', room: '44' }, { visitDate: '1999-07-04', visitTime: '00:15', checkIn: '1999-07-05T23:59' }],
      [{ patient: 'Jon Snow', visitDate: '2025/10/10', visitTime: '6:00 AM', followUp: '2025/11/11', checkIn: '2025/11/11 6:45 PM', room: '9' }, { visitDate: '2025-10-10', visitTime: '06:00', checkIn: '2025-11-11T18:45' }],
    ],
  },
  {
    page: '/visit-mdy',
    rows: [
      [{ patient: 'Ada Byron', visitDate: '08/29/2020', visitTime: '14:30', followUp: '09/14/2020', checkIn: '09/14/2020 08:15', room: '12' }, { visitDate: '2020-08-29', visitTime: '14:30', checkIn: '2020-09-14T08:15' }],
      [{ patient: 'Otto Lind', visitDate: '3/14/2021', visitTime: '09:05', followUp: '4/1/2021', checkIn: '4/1/2021 22:30', room: '3' }, { visitDate: '2021-03-14', visitTime: '09:05', checkIn: '2021-04-01T22:30' }],
      [{ patient: 'Mia Sousa', visitDate: '12/01/2019', visitTime: '23:59', followUp: '01/02/2020', checkIn: '01/02/2020 12:00', room: '7B' }, { visitDate: '2019-12-01', visitTime: '23:59', checkIn: '2020-01-02T12:00' }],
      [{ patient: 'Li Wei', visitDate: '02/29/2024', visitTime: '00:00', followUp: '03/30/2024', checkIn: '03/30/2024 01:05', room: '1' }, { visitDate: '2024-02-29', visitTime: '00:00', checkIn: '2024-03-30T01:05' }],
      [{ patient: 'Noor Aziz', visitDate: '07/04/1999', visitTime: '13:15', followUp: '07/05/1999', checkIn: '07/05/1999 23:59', room: '44' }, { visitDate: '1999-07-04', visitTime: '13:15', checkIn: '1999-07-05T23:59' }],
      [{ patient: 'Jon Snow', visitDate: '10/10/2025', visitTime: '06:00', followUp: '11/11/2025', checkIn: '11/11/2025 18:45', room: '9' }, { visitDate: '2025-10-10', visitTime: '06:00', checkIn: '2025-11-11T18:45' }],
    ],
  },
  {
    page: '/visit-dmy',
    rows: [
      [{ patient: 'Ada Byron', visitDate: '29.08.2020', visitTime: '2:30pm', followUp: '14.09.2020', checkIn: '14.09.2020 8:15am', room: '12' }, { visitDate: '2020-08-29', visitTime: '14:30', checkIn: '2020-09-14T08:15' }],
      [{ patient: 'Otto Lind', visitDate: '14.3.2021', visitTime: '9:05am', followUp: '1.4.2021', checkIn: '1.4.2021 10:30pm', room: '3' }, { visitDate: '2021-03-14', visitTime: '09:05', checkIn: '2021-04-01T22:30' }],
      [{ patient: 'Mia Sousa', visitDate: '01.12.2019', visitTime: '12:00pm', followUp: '02.01.2020', checkIn: '02.01.2020 12:00pm', room: '7B' }, { visitDate: '2019-12-01', visitTime: '12:00', checkIn: '2020-01-02T12:00' }],
      [{ patient: 'Li Wei', visitDate: '29.02.2024', visitTime: '11:45pm', followUp: '30.03.2024', checkIn: '30.03.2024 1:05am', room: '1' }, { visitDate: '2024-02-29', visitTime: '23:45', checkIn: '2024-03-30T01:05' }],
      [{ patient: 'Noor Aziz', visitDate: '04.07.1999', visitTime: '12:15am', followUp: '05.07.1999', checkIn: '05.07.1999 11:59pm', room: '44' }, { visitDate: '1999-07-04', visitTime: '00:15', checkIn: '1999-07-05T23:59' }],
      [{ patient: 'Jon Snow', visitDate: '10.10.2025', visitTime: '6:00am', followUp: '11.11.2025', checkIn: '11.11.2025 6:45pm', room: '9' }, { visitDate: '2025-10-10', visitTime: '06:00', checkIn: '2025-11-11T18:45' }],
    ],
  },
];

for (const { page, rows } of FORMATS) {
  test(`${page}: native date and time fields and a date picker, values in the user's format, replay with no agent call`, async ({ app, runOn }) => {
    const task = 'Schedule the visit';
    const [first, ...replays] = rows;
    const [recordedParams, recordedWant] = first!;
    const recorded = await runOn(page, { task, params: recordedParams });
    expect(recorded.status, recorded.error).toBe('agent');
    expect(app.submissions.at(-1)!.fields).toEqual({ ...recordedParams, ...recordedWant });
    for (const [params, want] of replays) {
      const result = await runOn(page, { task, params });
      replayedFromCache(result, JSON.stringify(params));
      expect(app.submissions.at(-1)!.fields).toEqual({ ...params, ...want });
    }
  });
}

test('a native select opened by a click, typed into and taken with Enter (as computer-use models choose): each replay submits its own option with no agent call', async ({ app, runOn }) => {
  const task = 'Save the shipping address';
  const rows = [
    { holder: 'Ann Reed', state: 'Ohio', city: 'Dayton' },
    { holder: 'Bo Chen', state: 'Texas', city: 'Waco' },
    { holder: 'Cy Diaz', state: 'Maine', city: 'Bangor' },
    { holder: 'Di Kaur', state: 'Iowa', city: 'Ames' },
  ];
  const recorded = await runOn('/shipping', { task, params: rows[0]! });
  expect(recorded.status, recorded.error).toBe('agent');
  expect(recorded.steps.map((step) => step.action.type)).toEqual(['click', 'type', 'click', 'type', 'keypress', 'click', 'type', 'click']);
  expect(app.submissions.at(-1)!.fields).toEqual(rows[0]);
  for (const params of rows.slice(1)) {
    const result = await runOn('/shipping', { task, params });
    replayedFromCache(result, JSON.stringify(params));
    // The list the click opened kept the option it opened on; the recorded Enter took that one back.
    expect(app.submissions.at(-1)!.fields).toEqual(params);
  }
});

test('a 15-field form where one field cannot be replayed: the agent fills that field alone, the run re-joins, and the next run replays it', async ({ app, runOn, rote, page }) => {
  const task = 'Send the membership application';
  const person = (i: number, birthDate: string) => ({
    firstName: `Ann${i}`, lastName: `Berg${i}`, email: `ann${i}@example.org`, phone: `555-010${i}`, street: `${i} Main Street`, city: `Springfield${i}`, postcode: `1000${i}`,
    birthDate, employer: `Acme ${i}`, position: `Clerk ${i}`, yearsEmployed: `${i + 2}`, referee: `Bob Referee${i}`, refereePhone: `555-020${i}`, club: `Chess ${i}`, remarks: `Remark number ${i}`,
  });
  const iso = (mdy: string) => { const [m, d, y] = mdy.split('/'); return `${y}-${m}-${d}`; };
  // 05/05/1990 reads the same month first and day first: the birth date's typing cannot be bound.
  const recorded = await runOn('/application', { task, params: person(1, '05/05/1990') });
  expect(recorded.status, recorded.error).toBe('agent');
  expect(app.submissions.at(-1)!.fields).toEqual({ ...person(1, '05/05/1990'), birthDate: '1990-05-05' });

  // A day over 12 tells the order: month first is the only reading of 06/17/1991, so it replays.
  const decided = await runOn('/application', { task, params: person(2, '06/17/1991') });
  replayedFromCache(decided, '06/17/1991');
  expect(app.submissions.at(-1)!.fields).toEqual({ ...person(2, '06/17/1991'), birthDate: iso('06/17/1991') });

  // 06/07/1991 reads as June 7 or July 6: the agent is asked for that field only, then the recorded path goes on.
  const handed = await runOn('/application', { task, params: person(3, '06/07/1991') });
  expect(handed.status, handed.error).toBe('mixed');
  expect(handed.agentCalls).toBeLessThanOrEqual(2);
  expect(handed.agentSteps).toBeLessThanOrEqual(2);
  expect(handed.divergences).toHaveLength(1);
  expect(handed.divergences[0]!.reason).toContain('{{birthDate}}');
  expect(app.submissions.at(-1)!.fields).toEqual({ ...person(3, '06/07/1991'), birthDate: iso('06/07/1991') });

  // The detour was learned: every later date replays from the cache, day over 12 or not.
  for (const [i, birthDate] of [[4, '12/31/1985'], [5, '01/02/2000'], [6, '07/04/1976']] as const) {
    const result = await runOn('/application', { task, params: person(i, birthDate) });
    replayedFromCache(result, birthDate);
    expect(app.submissions.at(-1)!.fields).toEqual({ ...person(i, birthDate), birthDate: iso(birthDate) });
  }

  // The report shows the takeover and the re-join.
  const dir = await mkdtemp(join(tmpdir(), 'rote-report-'));
  try {
    await writeReport(rote.store, {}, dir);
    await page.goto(pathToFileURL(join(dir, 'runs', `${handed.runId}.html`)).href);
    await expect(page.locator('#step-counts')).toContainText(`${handed.agentSteps} agent, 1 re-joined`);
    await expect(page.locator('#timeline li.step[data-kind="rejoined"]')).toHaveCount(1);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

import type { Page } from '@playwright/test';
import { param } from '../src/params/paramType.js';
import type { Rote } from '../src/rote.js';
import type { RunOptions } from '../src/engine/runOptions.js';
import { enrollAgent } from './support/enrollAgent.js';
import { startEnrollApp, type EnrollApp } from './support/enrollApp.js';
import { expect, test } from './fixtures.js';

const TASK = 'Enroll {{customer}}';
const FIRST = {
  customer: 'Ann Lee',
  dob: '1990-04-01',
  appointment: '20:04',
  state: 'CA',
  employment: 'Part-time',
  shift: 'evening',
  newsletter: true,
  country: 'USA',
};
const SECOND = { ...FIRST, customer: 'Cara Diaz', dob: '2003-11-25', appointment: '09:05', state: 'NY', employment: 'Full-time', shift: 'morning', newsletter: false };

let app: EnrollApp;
test.beforeEach(async () => {
  app = await startEnrollApp();
});
test.afterEach(async () => {
  await app.close();
});

async function enroll(rote: Rote, page: Page, params: Record<string, string | boolean>, options: Partial<RunOptions> = {}) {
  await page.goto(app.url);
  const agent = enrollAgent(page);
  const result = await rote.run(page, { task: TASK, params, agent, ...options });
  return { result, agent };
}

test('a date in another format, a 12-hour time, selects by value and label, a row by name and a checkbox replay with new values', async ({ rote, page }) => {
  const first = await enroll(rote, page, FIRST);
  expect(first.result.status).toBe('agent');
  expect(app.submissions[0]).toEqual({ customer: 'Ann Lee', dob: '04/01/1990', appointment: '8:04 PM', state: 'CA', employment: 'pt', shift: 'e', newsletter: 'yes', country: 'USA' });

  const second = await enroll(rote, page, SECOND);
  expect(second.result.status, second.result.error).toBe('replayed');
  expect(second.agent.calls).toBe(0);
  // Every value rendered the way the recording typed it, options chosen by value or label variant,
  // the row found by the new name, and the checkbox recorded as checked left unchecked.
  expect(app.submissions[1]).toEqual({ customer: 'Cara Diaz', dob: '11/25/2003', appointment: '9:05 AM', state: 'NY', employment: 'ft', shift: 'm', country: 'USA' });
});

test('a field left at its default while recording gets the new value, or the run hands over before submitting', async ({ rote, page }) => {
  const recorded = await enroll(rote, page, FIRST);
  expect(recorded.result.status, recorded.result.error).toBe('agent');

  const strict = await enroll(rote, page, { ...SECOND, country: 'Canada' }, { mode: 'replay-only' });
  expect(strict.result.status).toBe('diverged');
  expect(strict.result.divergences[0]?.reason).toContain('country');
  expect(app.submissions).toHaveLength(1);

  const handed = await enroll(rote, page, { ...SECOND, country: 'Canada' });
  expect(handed.result.status).toBe('mixed');
  expect(handed.agent.calls).toBeGreaterThan(0);
  expect(app.submissions[1]).toMatchObject({ customer: 'Cara Diaz', dob: '11/25/2003', country: 'Canada' });
});

test('a date typed in a form that cannot be told for sure is not replayed with another value', async ({ rote, page }) => {
  // 01/01/2001 could be month-first or day-first: it is kept literal.
  const recorded = await enroll(rote, page, { ...FIRST, dob: '2001-01-01' });
  expect(recorded.result.status, recorded.result.error).toBe('agent');
  const other = await enroll(rote, page, { ...SECOND, dob: '1985-07-14' }, { mode: 'replay-only' });
  expect(other.result.status).toBe('diverged');
  expect(other.result.divergences[0]?.reason).toMatch(/\{\{dob\}\}.*could not be told for sure/);
  expect(app.submissions).toHaveLength(1);

  const same = await enroll(rote, page, { ...SECOND, dob: '2001-01-01' });
  expect(same.result.status, same.result.error).toBe('replayed');
  expect(app.submissions[1]).toMatchObject({ customer: 'Cara Diaz', dob: '01/01/2001' });
});

test('typed parameters: every problem listed before any action, and the types the recording learned are checked later', async ({ rote, page }) => {
  await page.goto(app.url);
  const schema = { dob: param.date(), appointment: param.time(), state: param.enum(['CA', 'NY', 'TX']), newsletter: param.boolean(), country: param.string().default('USA') };
  const bad = { ...FIRST, dob: '1990-02-30', appointment: '8:04 PM', state: 'ZZ', newsletter: 'maybe' };
  const agent = enrollAgent(page);
  const error = await rote.run(page, { task: TASK, params: bad, schema, agent }).catch((thrown: unknown) => thrown as Error);
  expect(error).toBeInstanceOf(Error);
  const message = (error as Error).message;
  expect(message).toContain('4 problems with params');
  expect(message).toContain('params.dob must be a real calendar date');
  expect(message).toContain('params.appointment must be a 24-hour time');
  expect(message).toContain('params.state must be one of "CA", "NY", "TX"');
  expect(message).toContain('params.newsletter must be a boolean');
  expect(agent.calls).toBe(0);
  expect(await page.getByLabel('Date of birth').inputValue()).toBe('');

  // Recorded without a schema: the date typed as 04/01/1990 teaches rote that dob is a date.
  const withoutCountry = Object.fromEntries(Object.entries(FIRST).filter(([name]) => name !== 'country'));
  await enroll(rote, page, withoutCountry, { schema: { country: param.string().default('USA') } });
  expect(app.submissions[0]).toMatchObject({ country: 'USA' });
  const later = await enroll(rote, page, { ...SECOND, dob: 'next tuesday' }).catch((thrown: unknown) => thrown as Error);
  expect((later as Error).message).toContain('params.dob must be a date as YYYY-MM-DD');
  expect((later as Error).message).toContain('the recording typed it as one');
  expect(app.submissions).toHaveLength(1);
});

test('the same task with another ordinal in its text is another cache key', async ({ rote, page }) => {
  const list = (ordinal: string) => `Open the ${ordinal} customer`;
  const byOrdinal = async (ordinal: string, index: number) => {
    await page.goto(app.url);
    const scripted = {
      name: 'ordinal',
      calls: 0,
      async next() {
        this.calls++;
        if (this.calls > 1) return { done: true as const };
        const box = (await page.getByRole('link').nth(index).boundingBox())!;
        return { actions: [{ type: 'click' as const, x: box.x + box.width / 2, y: box.y + box.height / 2 }] };
      },
    };
    const result = await rote.run(page, { task: list(ordinal), agent: scripted });
    return { result, calls: scripted.calls, picked: await page.locator('#picked').textContent() };
  };
  const second = await byOrdinal('2nd', 1);
  expect(second.result.status).toBe('agent');
  expect(second.picked).toBe('Selected customer: Bob Stone');
  const third = await byOrdinal('3rd', 2);
  // Not a replay of the 2nd: a miss, so the agent does it and picks the right row.
  expect(third.result.status).toBe('agent');
  expect(third.picked).toBe('Selected customer: Cara Diaz');
  const againSecond = await byOrdinal('2nd', 1);
  expect(againSecond.result.status).toBe('replayed');
  expect(againSecond.calls).toBe(0);
  expect(againSecond.picked).toBe('Selected customer: Bob Stone');
});

test('native date and time inputs are set by value on replay, whatever keys the recording pressed', async ({ rote, page }) => {
  const centre = async (label: string) => {
    const box = (await page.getByLabel(label).boundingBox())!;
    return { x: Math.round(box.x + 20), y: Math.round(box.y + box.height / 2) };
  };
  // Types the segments as a person does in an en-US browser: month, day, year; hour, minute, AM/PM.
  const agent = {
    calls: 0,
    async next(observation: { params: Record<string, string> }) {
      this.calls++;
      if (this.calls > 1) return { done: true as const };
      const [y, m, d] = observation.params.start!.split('-');
      const [h, min] = observation.params.at!.split(':').map(Number) as [number, number];
      const twelve = `${String(h % 12 === 0 ? 12 : h % 12).padStart(2, '0')}${String(min).padStart(2, '0')}${h < 12 ? 'A' : 'P'}`;
      const submit = (await page.getByRole('button', { name: 'Submit' }).boundingBox())!;
      return {
        actions: [
          { type: 'click' as const, ...(await centre('Start date')) },
          { type: 'type' as const, text: `${m}${d}${y}` },
          { type: 'click' as const, ...(await centre('Start time')) },
          { type: 'type' as const, text: twelve },
          { type: 'click' as const, x: submit.x + 5, y: submit.y + 5 },
        ],
      };
    },
  };
  const run = async (params: Record<string, string>) => {
    await page.goto(app.url.replace('/enroll', '/dates'));
    return rote.run(page, { task: 'Schedule a start', params, agent });
  };
  const first = await run({ start: '2024-03-09', at: '20:04' });
  expect(first.status).toBe('agent');
  expect(app.submissions[0]).toEqual({ start: '2024-03-09', at: '20:04' });
  const calls = agent.calls;
  const second = await run({ start: '2025-12-31', at: '07:30' });
  expect(second.status, second.error).toBe('replayed');
  expect(agent.calls).toBe(calls);
  expect(app.submissions[1]).toEqual({ start: '2025-12-31', at: '07:30' });
  // The inputs take ISO values only: the recording taught rote that start is a date.
  const wrong = await run({ start: '12/31/2025', at: '07:30' }).catch((thrown: unknown) => thrown as Error);
  expect((wrong as Error).message).toContain('params.start must be a date as YYYY-MM-DD');
  expect(app.submissions).toHaveLength(2);
});

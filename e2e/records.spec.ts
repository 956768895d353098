import { expect } from '@playwright/test';
import type { RunOptions } from '../src/engine/runOptions.js';
import type { RunResult } from '../src/engine/runResult.js';
import { appTest } from './support/appTest.js';
import { startRecordsApp } from './support/recordsApp.js';

/**
 * Where the words beside a button are a record's data, not its label (a probe of pages unlike ours
 * found rote acting on the wrong row in each): every run is judged by what the server received.
 */
type Run = (path: string, task: string, params?: Record<string, string>, options?: Partial<Omit<RunOptions, 'agent' | 'task' | 'params'>>) => Promise<RunResult>;
const test = appTest(startRecordsApp).extend<{ run: Run }>({
  run: async ({ runOn }, use) => use((path, task, params = {}, options = {}) => runOn(path, { task, params, ...options })),
});

const reasons = (result: RunResult) => result.divergences.map((d) => d.reason).join(' | ');

test('"approve the claim of {{amount}}": the row is the one holding this run\'s amount, not the claimant that held it when recorded', async ({ app, run }) => {
  await run('/claims', 'Approve the claim of {{amount}}', { amount: '250.00' });
  expect(app.sent.at(-1)!.fields).toEqual({ claimant: 'Ben Okafor', amount: '250.00' });
  // The claimants keep their order; the amounts move. 250.00 is Ada's claim now.
  app.set({ amounts: ['250.00', '80.00', '2500.00'] });
  const same = await run('/claims', 'Approve the claim of {{amount}}', { amount: '250.00' });
  expect(app.sent.at(-1)!.fields).toEqual({ claimant: 'Ada Byrne', amount: '250.00' });
  expect(same.status, reasons(same)).toBe('replayed');
  const other = await run('/claims', 'Approve the claim of {{amount}}', { amount: '2500.00' });
  expect(app.sent.at(-1)!.fields).toEqual({ claimant: 'Cleo Park', amount: '2500.00' });
  expect(other.status, reasons(other)).toBe('replayed');
});

test('"approve the first request" known by a name the task never says: that name in another place is not followed', async ({ app, run }) => {
  await run('/requests', 'Approve the first access request');
  expect(app.sent.at(-1)!.fields.who).toBe('Dana Reyes');
  app.set({ requesters: ['Fay Ortiz', 'Gus Lind', 'Dana Reyes', 'Eli Novak'] });
  const cacheOnly = await run('/requests', 'Approve the first access request', {}, { mode: 'replay-only' });
  expect(cacheOnly.status).toBe('diverged');
  expect(reasons(cacheOnly)).toContain('nothing recorded tells whether the step meant those words or that place');
  expect(app.sent).toHaveLength(1);
  // With an agent, the agent approves the first request: nothing was sent from the cache.
  const helped = await run('/requests', 'Approve the first access request');
  expect(app.sent.at(-1)!.fields.who).toBe('Fay Ortiz');
  expect(helped.status).not.toBe('replayed');
  // Where the name stays in its place, the step is replayed.
  app.set({ requesters: ['Dana Reyes', 'Gus Lind', 'Eli Novak', 'Fay Ortiz'] });
  const still = await run('/requests', 'Approve the first access request');
  expect(app.sent.at(-1)!.fields.who).toBe('Dana Reyes');
  expect(still.status, reasons(still)).toBe('replayed');
});

test('a request the task names is followed wherever it moves', async ({ app, run }) => {
  app.set({ wants: 'Eli Novak' });
  await run('/requests', 'Approve the access request of Eli Novak');
  app.set({ requesters: ['Gus Lind', 'Fay Ortiz', 'Dana Reyes', 'Eli Novak'] });
  const result = await run('/requests', 'Approve the access request of Eli Novak', {}, { mode: 'replay-only' });
  expect(app.sent.at(-1)!.fields.who).toBe('Eli Novak');
  expect(result.status, reasons(result)).toBe('replayed');
});

test('a form whose unlabelled box loads ticked is not sent from the cache with a value no step chose', async ({ app, run }) => {
  const task = 'File a ticket about {{subject}} from {{zip}}';
  await run('/ticket', task, { subject: 'Printer jam', zip: '10115', urgent: 'no' });
  expect(app.sent.at(-1)!.fields).toEqual({ subject: 'Printer jam', region: 'East', zip: '10115' });
  // The region the page's script sets from another ZIP code is not a form found otherwise.
  const again = await run('/ticket', task, { subject: 'Login loop', zip: '20095', urgent: 'no' });
  expect(app.sent.at(-1)!.fields).toEqual({ subject: 'Login loop', region: 'South', zip: '20095' });
  expect(again.status, reasons(again)).toBe('replayed');
  app.set({ urgentTicked: true });
  const cacheOnly = await run('/ticket', task, { subject: 'Paper out', zip: '10115', urgent: 'no' }, { mode: 'replay-only' });
  expect(cacheOnly.status).toBe('diverged');
  expect(reasons(cacheOnly)).toContain('checkbox "urgent" is on (was off)');
  expect(app.sent).toHaveLength(2);
  // The agent unticks it; what it did is learned, and the next such load replays it.
  const helped = await run('/ticket', task, { subject: 'Paper out', zip: '10115', urgent: 'no' });
  expect(app.sent.at(-1)!.fields).toEqual({ subject: 'Paper out', region: 'East', zip: '10115' });
  expect(helped.status).not.toBe('replayed');
  const learned = await run('/ticket', task, { subject: 'Toner low', zip: '30159', urgent: 'no' });
  expect(app.sent.at(-1)!.fields).toEqual({ subject: 'Toner low', region: 'West', zip: '30159' });
  expect(learned.status, reasons(learned)).toBe('replayed');
});

test('a form sent by the Enter typed at the end of a field is checked the same way', async ({ app, run }) => {
  app.set({ sendBy: 'enter' });
  const task = 'File a ticket about {{subject}} from {{zip}}';
  await run('/ticket', task, { subject: 'Printer jam', zip: '10115', urgent: 'no' });
  expect(app.sent.at(-1)!.fields).toEqual({ subject: 'Printer jam', region: 'East', zip: '10115' });
  app.set({ urgentTicked: true });
  // The same ZIP code: a ZIP typed with its Enter is kept literal (a known limit), which would diverge first.
  const cacheOnly = await run('/ticket', task, { subject: 'Paper out', zip: '10115', urgent: 'no' }, { mode: 'replay-only' });
  expect(cacheOnly.status).toBe('diverged');
  expect(reasons(cacheOnly)).toContain('checkbox "urgent" is on (was off)');
  expect(app.sent).toHaveLength(1);
});

test('an amount shown with its currency, beside a column that may show the same figure, still picks the claim of this run\'s amount', async ({ app, run }) => {
  app.set({ dollars: true });
  await run('/claims', 'Approve the claim of {{amount}}', { amount: '250.00' });
  expect(app.sent.at(-1)!.fields).toEqual({ claimant: 'Ben Okafor', amount: '250.00' });
  // 80.00 is now Ben's claim, and what Ada was paid so far.
  app.set({ amounts: ['250.00', '80.00', '2500.00'], paid: ['80.00', '0.00', '250.00'] });
  const eighty = await run('/claims', 'Approve the claim of {{amount}}', { amount: '80.00' });
  expect(app.sent.at(-1)!.fields).toEqual({ claimant: 'Ben Okafor', amount: '80.00' });
  expect(eighty.status, reasons(eighty)).toBe('replayed');
  const same = await run('/claims', 'Approve the claim of {{amount}}', { amount: '250.00' });
  expect(app.sent.at(-1)!.fields).toEqual({ claimant: 'Ada Byrne', amount: '250.00' });
  expect(same.status, reasons(same)).toBe('replayed');
  // An amount no claim holds (Cleo was paid it so far) is approved nowhere from the cache.
  app.set({ paid: ['0.00', '0.00', '120.00'] });
  const none = await run('/claims', 'Approve the claim of {{amount}}', { amount: '120.00' }, { mode: 'replay-only' });
  expect(none.status).toBe('diverged');
  expect(app.sent).toHaveLength(3);
});

test('requests shown as cards, each name in the text before its button, are no more followed than list items', async ({ app, run }) => {
  app.set({ layout: 'cards' });
  await run('/requests', 'Approve the first access request');
  expect(app.sent.at(-1)!.fields.who).toBe('Dana Reyes');
  app.set({ requesters: ['Fay Ortiz', 'Gus Lind', 'Dana Reyes', 'Eli Novak'] });
  const cacheOnly = await run('/requests', 'Approve the first access request', {}, { mode: 'replay-only' });
  expect(cacheOnly.status).toBe('diverged');
  expect(app.sent).toHaveLength(1);
});

test('a form of divs that a script sends is checked as a form', async ({ app, run }) => {
  app.set({ markup: 'divs' });
  const task = 'File a ticket about {{subject}} from {{zip}}';
  await run('/ticket', task, { subject: 'Printer jam', zip: '10115', urgent: 'no' });
  expect(app.sent.at(-1)!.fields).toEqual({ subject: 'Printer jam', region: 'East', zip: '10115' });
  const again = await run('/ticket', task, { subject: 'Login loop', zip: '20095', urgent: 'no' });
  expect(app.sent.at(-1)!.fields).toEqual({ subject: 'Login loop', region: 'South', zip: '20095' });
  expect(again.status, reasons(again)).toBe('replayed');
  app.set({ urgentTicked: true });
  const cacheOnly = await run('/ticket', task, { subject: 'Paper out', zip: '10115', urgent: 'no' }, { mode: 'replay-only' });
  expect(cacheOnly.status).toBe('diverged');
  expect(reasons(cacheOnly)).toContain('checkbox "urgent" is on (was off)');
  expect(app.sent).toHaveLength(2);
});

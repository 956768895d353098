import { expect } from '@playwright/test';
import type { RunOptions } from '../src/engine/runOptions.js';
import type { RunResult } from '../src/engine/runResult.js';
import { appTest } from './support/appTest.js';
import { oracleAgent } from './support/oracleAgent.js';
import { startTrickyApp } from './support/trickyApp.js';

/**
 * A step that types into the field the step before just clicked has its crop check answered by
 * that click's (same element, same box, same document, nothing over its middle: see
 * src/engine/cropProof.ts), and its target read by that click's read (the same element holds the
 * focus, nothing in the page changed since, its accessibility node says the same: see
 * src/engine/readProof.ts). These pages try to make those proofs stand where they must not.
 */
type Run = (params: Record<string, string>, options?: Partial<Omit<RunOptions, 'agent'>>) => Promise<RunResult>;
const test = appTest(startTrickyApp).extend<{ run: Run }>({
  run: async ({ runOn }, use) => use((params, options = {}) => runOn('/note', { task: 'Save the note {{note}}', params, ...options, agent: (page) => oracleAgent(page) })),
});

test('typing into the field just clicked leans on the click\'s crop, and the value arrives', async ({ app, run }) => {
  await run({ note: 'first' });
  const result = await run({ note: 'second' }, { mode: 'replay-only' });
  expect(result.status, result.error).toBe('replayed');
  const typed = result.steps.find((step) => step.action.type === 'type')!;
  expect(typed.cropFrom).toBe(typed.index);
  // The click before it had its own crop compared, and its read of the field stood for the typing's (readProof.ts).
  expect(result.steps[typed.index - 1]!.cropFrom).toBeUndefined();
  expect(typed.readFrom).toBe(typed.index);
  expect(app.done.at(-1)!.fields.note).toBe('second');
});

test('a notice the click opened over the field is not leaned past: the crop is compared and the step is not replayed', async ({ app, run }) => {
  await run({ note: 'first' });
  app.set({ noteFocus: 'cover' });
  const result = await run({ note: 'second' }, { mode: 'replay-only', checkTimeout: 800 });
  expect(result.status).toBe('diverged');
  const typed = result.divergences[0]!;
  expect(typed.action?.type).toBe('type');
  expect(typed.reason).toContain('looks different');
  expect(app.done).toHaveLength(1);
});

test('a field replaced by an identical one when focused is another element: its crop is compared, not leaned on', async ({ app, run }) => {
  await run({ note: 'first' });
  app.set({ noteFocus: 'replace' });
  const result = await run({ note: 'second' }, { mode: 'replay-only' });
  expect(result.status, result.error).toBe('replayed');
  const typed = result.steps.find((step) => step.action.type === 'type')!;
  expect(typed.cropFrom).toBeUndefined();
  expect(typed.readFrom).toBeUndefined();
  expect(typed.checks?.visual).toBeGreaterThan(0);
  expect(app.done.at(-1)!.fields.note).toBe('second');
});

test('a field that hands the focus on to another when clicked, changing nothing in the page: the typing step diverges, nothing is typed', async ({ app, run }) => {
  await run({ note: 'first' });
  app.set({ noteFocus: 'elsewhere' });
  const result = await run({ note: 'second' }, { mode: 'replay-only', checkTimeout: 800 });
  // The focused element is another one, with no change in the page: it is not the recorded field.
  expect(result.status).toBe('diverged');
  expect(result.divergences[0]!.action?.type).toBe('type');
  expect(result.steps.some((step) => step.action.type === 'type')).toBe(false);
  expect(app.done).toHaveLength(1);
});

test('a field that hands the focus on in a task it queues, changing nothing in the page: nothing is typed into the other field, whatever the timing', async ({ app, run }) => {
  await run({ note: 'first' });
  app.set({ noteFocus: 'elsewhere-later' });
  for (let i = 0; i < 6; i++) {
    const result = await run({ note: `second ${i}` }, { mode: 'replay-only', checkTimeout: 800 });
    expect(result.status).toBe('diverged');
    expect(result.steps.some((step) => step.action.type === 'type')).toBe(false);
  }
  expect(app.done).toHaveLength(1);
});

test('a field filled in by its property when focused (no change in the DOM) is read as holding text: it is cleared before the keys, as any read would have it', async ({ app, run }) => {
  await run({ note: 'first' });
  app.set({ noteFocus: 'prefill' });
  for (let i = 0; i < 3; i++) {
    const result = await run({ note: `second ${i}` }, { mode: 'replay-only' });
    expect(result.status, result.error).toBe('replayed');
    const typed = result.steps.find((step) => step.action.type === 'type')!;
    expect(typed.readFrom).toBe(typed.index);
    expect(app.done.at(-1)!.fields.note).toBe(`second ${i}`);
  }
});

test('a label that a stylesheet renames once the field is focused (no change in the DOM): the name is read again, and the typing step is not replayed', async ({ app, run }) => {
  await run({ note: 'first' });
  app.set({ noteFocus: 'css-name' });
  const result = await run({ note: 'second' }, { mode: 'replay-only', checkTimeout: 800 });
  // The field's name is "Edit Note" once focused: not the recorded "Note", though nothing in the DOM changed.
  expect(result.status).toBe('diverged');
  expect(result.divergences[0]!.action?.type).toBe('type');
  expect(result.divergences[0]!.reason).toContain('Edit Note');
  expect(result.steps.some((step) => step.action.type === 'type')).toBe(false);
  expect(app.done).toHaveLength(1);
});

test('a field pushed down since the recording is compared where it is now, in the capture taken beside its read', async ({ app, run }) => {
  await run({ note: 'first' });
  app.set({ noteBanner: 'shown' });
  const result = await run({ note: 'second' }, { mode: 'replay-only' });
  expect(result.status, result.error).toBe('replayed');
  const click = result.steps.find((step) => step.action.type === 'click')!;
  expect(click.checks?.visual).toBeGreaterThan(0);
  expect(app.done.at(-1)!.fields.note).toBe('second');
});

test('a field pushed down and veiled where it is now (clicks pass through the veil) looks different: not replayed', async ({ app, run }) => {
  await run({ note: 'first' });
  app.set({ noteBanner: 'veiled' });
  const result = await run({ note: 'second' }, { mode: 'replay-only', checkTimeout: 800 });
  expect(result.status).toBe('diverged');
  expect(result.divergences[0]!.step).toBe(0);
  expect(result.divergences[0]!.reason).toContain('looks different');
  expect(app.done).toHaveLength(1);
});

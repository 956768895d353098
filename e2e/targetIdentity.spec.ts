import { expect } from '@playwright/test';
import type { RunOptions } from '../src/engine/runOptions.js';
import type { RunResult } from '../src/engine/runResult.js';
import { PEOPLE, startCorpusApp } from './support/corpusApp.js';
import { appTest } from './support/appTest.js';

/**
 * Targets that role and accessible name do not identify: fields known by a row header, a
 * placeholder or an id, look-alike buttons in rows, bare icons. Every replay runs on a fresh load
 * (rows shuffled, fields jittered) and is checked on the server: never a value in the wrong field.
 */
type Run = (path: string, params: Record<string, string>, options?: Partial<Omit<RunOptions, 'agent'>>) => Promise<RunResult>;
const test = appTest(() => startCorpusApp(7)).extend<{ run: Run }>({
  run: async ({ runOn }, use) => use((path, params, options = {}) => runOn(path, { task: `Fill in ${path}`, params, ...options })),
});

const book = (i: number) => ({ title: `Title ${i} of the sea`, author: `Author Number${i}`, genre: `Genre${i} fiction` });

test('fields known only by their row header go to the right row on every shuffled load, from the cache', async ({ app, run }) => {
  const recorded = await run('/rows', book(0));
  expect(recorded.status).toBe('agent');
  let relocated = 0;
  for (let i = 1; i <= 5; i++) {
    const result = await run('/rows', book(i));
    expect(app.submissions.at(-1)!.fields, `run ${i}`).toEqual({ v_title: book(i).title, v_author: book(i).author, v_genre: book(i).genre });
    expect(result.status, result.error).toBe('replayed');
    expect(result.agentCalls).toBe(0);
    relocated += result.relocatedSteps;
  }
  // Rows moved under the recorded pixels on most loads; each time the field was found by its header.
  expect(relocated).toBeGreaterThan(0);
});

test('a row header that now says something else is not the recorded field: the step diverges, nothing is typed into another row', async ({ app, run }) => {
  await run('/rows', book(0));
  const submitted = app.submissions.length;
  app.set({ renamedHeader: 'Category' });
  const result = await run('/rows', book(1), { mode: 'replay-only' });
  expect(result.status).toBe('diverged');
  expect(result.divergences[0]!.reason).toContain('row "Genre"');
  expect(app.submissions).toHaveLength(submitted);

  // With the agent, the renamed field is handed over and filled: the right values in the right rows.
  const handed = await run('/rows', book(2));
  expect(handed.status).toBe('mixed');
  expect(app.submissions.at(-1)!.fields).toEqual({ v_title: book(2).title, v_author: book(2).author, v_genre: book(2).genre });
});

test('look-alike fields that nothing tells apart are never filled from the cache', async ({ app, run }) => {
  await run('/nameless', book(0));
  const submitted = app.submissions.length;
  const result = await run('/nameless', book(1), { mode: 'replay-only' });
  expect(result.status).toBe('diverged');
  expect(result.divergences[0]!.reason).toMatch(/nothing on the page tells which one it is/);
  expect(app.submissions).toHaveLength(submitted);
  for (let i = 2; i <= 3; i++) {
    const handed = await run('/nameless', book(i));
    expect(app.submissions.at(-1)!.fields, `run ${i}`).toEqual({ v_title: book(i).title, v_author: book(i).author, v_genre: book(i).genre });
    expect(handed.agentCalls).toBeGreaterThan(0);
  }
});

test('fields known only by a placeholder or an id, jittering 0-20 px, replay with no agent call', async ({ app, run }) => {
  const values = (i: number) => ({ publisher: `Publisher ${i} House`, isbn: `978-0-${1000 + i}-2`, ref: `REF-${i}X` });
  await run('/known', values(0));
  for (let i = 1; i <= 4; i++) {
    const result = await run('/known', values(i));
    expect(app.submissions.at(-1)!.fields, `run ${i}`).toEqual(values(i));
    expect(result.status, JSON.stringify(result.divergences.map((d) => [d.step, d.intent, d.reason]))).toBe('replayed');
    expect(result.agentCalls).toBe(0);
  }
});

test('identical Edit buttons in shuffled rows: the row of this run\'s person is found by its header cell', async ({ app, run }) => {
  await run('/people', { person: PEOPLE[0]!.name }, { task: 'Edit {{person}}' });
  for (const [i, person] of [PEOPLE[1]!, PEOPLE[3]!, PEOPLE[0]!].entries()) {
    const result = await run('/people', { person: person.name }, { task: 'Edit {{person}}' });
    expect(app.submissions.at(-1)!.fields.person, `run ${i}`).toBe(person.name);
    expect(result.status, result.error).toBe('replayed');
  }
});

test('bare icon buttons: replayed where they stand, never a wrong icon when they are shuffled', async ({ app, run }) => {
  await run('/toolbar', {}, { task: 'Save the draft' });
  const result = await run('/toolbar', {}, { task: 'Save the draft' });
  expect(result.status, result.error).toBe('replayed');
  expect(app.submissions.at(-1)!.fields.action).toBe('save');
  for (let i = 0; i < 4; i++) {
    const before = app.submissions.length;
    app.set({ shuffleIcons: true });
    const shuffled = await run('/toolbar', {}, { task: 'Save the draft', mode: 'replay-only' });
    // Either the save icon happened to stand where it was recorded, or the step diverged: never another icon.
    if (shuffled.status === 'replayed') expect(app.submissions.at(-1)!.fields.action).toBe('save');
    else expect(app.submissions).toHaveLength(before);
  }
  expect(app.destructive).toBe(0);
});

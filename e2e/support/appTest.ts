import { test as base, type Page } from '@playwright/test';
import type { Agent } from '../../src/agent/agent.js';
import type { RunOptions } from '../../src/engine/runOptions.js';
import type { RunResult } from '../../src/engine/runResult.js';
import { Rote } from '../../src/rote.js';
import { oracleAgent } from './oracleAgent.js';

/** A test app served on 127.0.0.1: where its pages are, and how to stop it. */
export type AppLike = { url(path: string): string; close(): Promise<void> };

/** One run of rote on a fresh load of `path`, with the page's oracle as agent unless `agent` makes another. */
export type RunOn = (path: string, options: Omit<RunOptions, 'agent'> & { agent?: (page: Page) => Agent }) => Promise<RunResult>;

/**
 * Playwright Test with an app started for each test, rote on an in-memory store, and `runOn`:
 * each run on a new page of the test's context (a fresh load, so per-load randomness applies),
 * closed afterwards, with a 1.5 s check timeout unless the options say otherwise.
 */
export function appTest<App extends AppLike>(start: () => Promise<App>) {
  return base.extend<{ app: App; rote: Rote; runOn: RunOn }>({
    app: startedApp(start),
    rote: memoryRote,
    runOn: async ({ app, rote, context }, use) => {
      await use(async (path, { agent, ...options }) => {
        const page = await context.newPage();
        try {
          await page.goto(app.url(path));
          return await rote.run(page, { checkTimeout: 1500, ...options, agent: (agent ?? ((at: Page) => oracleAgent(at)))(page) });
        } finally {
          await page.close();
        }
      });
    },
  });
}

/** A fixture: the app started for the test and closed after it. */
export function startedApp<App extends { close(): Promise<void> }>(start: () => Promise<App>) {
  return async ({}, use: (app: App) => Promise<void>) => {
    const app = await start();
    await use(app);
    await app.close();
  };
}

/** A fixture: rote on an in-memory store with the real migrations, closed after the test. */
export async function memoryRote({}, use: (rote: Rote) => Promise<void>): Promise<void> {
  const rote = await Rote.open({ store: ':memory:' });
  await use(rote);
  await rote.close();
}

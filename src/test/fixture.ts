import { dirname } from 'node:path';
import {
  expect as baseExpect,
  test as base,
  type Page,
  type PlaywrightTestArgs,
  type PlaywrightTestOptions,
  type PlaywrightWorkerArgs,
  type PlaywrightWorkerOptions,
  type TestInfo,
  type TestType,
} from '@playwright/test';
import { Rote } from '../rote.js';
import { TestRote, type RoteFixture } from './roteFixture.js';
import { resolveTestConfig, type RoteTestConfig } from './testOptions.js';
import { toBeReplayed } from './toBeReplayed.js';

/**
 * `rote` is set in the config (`use: { rote: { store, mode, recordings } }`) and is the fixture
 * in the test, under one name. Playwright allows that: the config's value is inserted right after
 * the option's declaration, and a later `extend` that overrides the fixture receives it as the
 * fixture's previous value (`{ rote }` in its own arguments). So the option is declared first,
 * then wrapped into the fixture bound to the test's page.
 */
const withOption = base.extend<{ rote: RoteTestConfig }>({
  rote: [{}, { option: true, box: true }],
});

async function roteFixture({ rote: config, page }: { rote: RoteTestConfig; page: Page }, use: (fixture: RoteFixture) => Promise<void>, testInfo: TestInfo): Promise<void> {
  const baseDir = testInfo.config.configFile ? dirname(testInfo.config.configFile) : process.cwd();
  const resolved = resolveTestConfig(config, baseDir);
  const rote = await Rote.open({ store: resolved.store });
  const fixture = new TestRote(rote, page, testInfo, resolved, baseDir);
  try {
    await use(fixture);
  } finally {
    await rote.close();
  }
  const verdict = fixture.verdict();
  if (verdict) throw verdict;
}

export type RoteTestArgs = PlaywrightTestArgs & PlaywrightTestOptions & { rote: RoteFixture };

// The option's type (RoteTestConfig) and the fixture's (RoteFixture) differ under the same name,
// which extend()'s types cannot say; the value Playwright hands the test is the fixture's.
export const test = withOption.extend({ rote: roteFixture as never }) as unknown as TestType<RoteTestArgs, PlaywrightWorkerArgs & PlaywrightWorkerOptions>;

export const expect = baseExpect.extend({ toBeReplayed });

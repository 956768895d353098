/**
 * rote/test: Playwright Test with a `rote` fixture bound to the test's page.
 *
 *   import { test, expect } from 'rote/test';
 *   test('register a patient', async ({ page, rote }) => {
 *     await page.goto('/intake');
 *     expect(await rote.run({ recording: 'intake', params: { firstName: 'Ada' } })).toBeReplayed();
 *   });
 */
export { test, expect, type RoteTestArgs } from './fixture.js';
export type { RoteFixture, RoteTestRunOptions } from './roteFixture.js';
export type { RoteTestConfig, RoteTestOptions } from './testOptions.js';

import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS } from './src/browser/launch.js';
import { findChromium } from './src/browser/findChromium.js';

/**
 * The tests that spend longest waiting (a job's expiry, a schedule's minute, a progress, a batch):
 * run first, so that the rest fill the workers beside them instead of waiting for them at the end
 * (files run in name order, and workers.spec.ts's 2.6 minutes came last).
 */
const WAITING_LONGEST = ['workers', 'postgresSchedules', 'faults', 'waits', 'schedules', 'runCommand', 'report', 'secretSweep'].map((name) => `**/${name}.spec.ts`);

export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  fullyParallel: true,
  // Three on two cores: the waiting tests leave room beside them (no test asserts a speed). A fourth
  // kept both cores at 99% and made each test slower, not the suite shorter (docs/contributing.md).
  workers: 3,
  projects: [
    { name: 'waiting-longest', testMatch: WAITING_LONGEST },
    { name: 'e2e', testIgnore: WAITING_LONGEST },
  ],
  retries: 0,
  // A guard against a hang, not a speed claim: the longest tests take 80 s here on a slow day.
  timeout: 240_000,
  forbidOnly: !!process.env.CI,
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : [['list']],
  use: {
    browserName: 'chromium',
    viewport: { width: 1280, height: 800 },
    launchOptions: { executablePath: findChromium().path, args: CHROMIUM_ARGS },
  },
});

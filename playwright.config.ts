import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS } from './src/browser/launch.js';
import { findChromium } from './src/browser/findChromium.js';

export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  fullyParallel: true,
  workers: 2,
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

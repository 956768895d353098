import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS } from './src/browser/launch.js';
import { findChromium } from './src/browser/findChromium.js';

export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  timeout: 120_000,
  forbidOnly: !!process.env.CI,
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : [['list']],
  use: {
    browserName: 'chromium',
    viewport: { width: 1280, height: 800 },
    launchOptions: { executablePath: findChromium().path, args: CHROMIUM_ARGS },
  },
});

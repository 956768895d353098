import type { Browser, LaunchOptions } from 'playwright';
import { findChromium } from './findChromium.js';

/** Flags for a headless Chromium on a machine with no network and no GPU, run as root. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];

export type LaunchBrowserOptions = Omit<LaunchOptions, 'executablePath'> & { executablePath?: string };

/** Launches Chromium found by `findChromium`, with rote's flags added to the caller's. */
export async function launchBrowser(options: LaunchBrowserOptions = {}): Promise<Browser> {
  const { path } = findChromium(options.executablePath);
  const headless = options.headless ?? true;
  const args = [...CHROMIUM_ARGS.filter((flag) => headless || flag !== '--headless'), ...(options.args ?? [])];
  // Loaded when a browser is launched: the CLI's usage errors and store commands never load Playwright.
  const { chromium } = await import('playwright');
  return chromium.launch({ ...options, headless, executablePath: path, args });
}

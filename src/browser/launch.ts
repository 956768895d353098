import type { Browser, LaunchOptions } from 'playwright';
import { disableFeaturesSwitch, foldFeatureSwitches } from './chromiumFeatures.js';
import { findChromium } from './findChromium.js';

/**
 * Flags for a headless Chromium on a machine with no network and no GPU, run as root; the last
 * keeps Playwright's disabled features and adds rote's (chromiumFeatures.ts). A Playwright config
 * that passes these as `launchOptions.args` gets both.
 */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  disableFeaturesSwitch(),
];

export type LaunchBrowserOptions = Omit<LaunchOptions, 'executablePath'> & { executablePath?: string };

/**
 * Launches Chromium found by `findChromium`, with rote's flags added to the caller's. A caller's
 * `--disable-features` or `--enable-features` is folded into rote's or Playwright's list rather
 * than replacing it (Chromium reads one of each).
 */
export async function launchBrowser(options: LaunchBrowserOptions = {}): Promise<Browser> {
  const { path } = findChromium(options.executablePath);
  const headless = options.headless ?? true;
  const args = foldFeatureSwitches([...CHROMIUM_ARGS.filter((flag) => headless || flag !== '--headless'), ...(options.args ?? [])]);
  // Loaded when a browser is launched: the CLI's usage errors and store commands never load Playwright.
  const { chromium } = await import('playwright');
  return chromium.launch({ ...options, headless, executablePath: path, args });
}

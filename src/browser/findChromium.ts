import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { RoteError } from '../errors/roteError.js';

export const INSTALL_HINT =
  'Install one with `apt-get update && apt-get install -y chromium` (Debian, as root), ' +
  'or `npx playwright install chromium` where downloads are allowed, ' +
  'or point ROTE_CHROMIUM at a Chromium or Chrome binary.';

const SYSTEM_CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

export type ChromiumSource = 'option' | 'ROTE_CHROMIUM' | 'playwright' | 'system';

/**
 * Finds a Chromium binary, in this order: the explicit option, `ROTE_CHROMIUM`,
 * Playwright's own downloaded browser, Debian's /usr/bin/chromium.
 */
export function findChromium(
  explicitPath?: string,
  env: NodeJS.ProcessEnv = process.env,
  systemPaths: readonly string[] = SYSTEM_CHROMIUM,
): { path: string; source: ChromiumSource } {
  if (explicitPath !== undefined) return { path: mustExist(explicitPath, 'the executablePath option'), source: 'option' };
  const fromEnv = env.ROTE_CHROMIUM;
  if (fromEnv) return { path: mustExist(fromEnv, 'ROTE_CHROMIUM'), source: 'ROTE_CHROMIUM' };
  const bundled = playwrightChromium();
  if (bundled) return { path: bundled, source: 'playwright' };
  for (const candidate of systemPaths) {
    if (existsSync(candidate)) return { path: candidate, source: 'system' };
  }
  throw new RoteError('browser-not-found', `rote: no Chromium found (looked at ROTE_CHROMIUM, Playwright's browsers, /usr/bin/chromium). ${INSTALL_HINT}`);
}

function mustExist(path: string, where: string): string {
  if (!existsSync(path)) {
    throw new RoteError('browser-not-found', `rote: ${where} is "${path}", but no file is there. ${INSTALL_HINT}`);
  }
  return path;
}

function playwrightChromium(): string | undefined {
  // Loaded here, not with the module: a command that ends on a usage error never needs Playwright
  // (0.75 s of CPU to load). Outside the try: a broken install says so, not "no Chromium found".
  const { chromium } = createRequire(import.meta.url)('playwright') as typeof import('playwright');
  try {
    const path = chromium.executablePath();
    return path && existsSync(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

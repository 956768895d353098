import { describe, expect, it } from 'vitest';
import { findChromium } from './findChromium.js';

describe('findChromium', () => {
  it('takes the explicit option first, then ROTE_CHROMIUM', () => {
    expect(findChromium(process.execPath, { ROTE_CHROMIUM: '/nowhere' })).toEqual({ path: process.execPath, source: 'option' });
    expect(findChromium(undefined, { ROTE_CHROMIUM: process.execPath })).toEqual({ path: process.execPath, source: 'ROTE_CHROMIUM' });
  });
  it('says where it looked and how to install one when a given path is wrong', () => {
    expect(() => findChromium(undefined, { ROTE_CHROMIUM: '/nowhere/chrome' })).toThrow(
      /ROTE_CHROMIUM is "\/nowhere\/chrome", but no file is there\. Install one with `apt-get update && apt-get install -y chromium`/,
    );
  });
  it('falls back to the system paths given', () => {
    const found = findChromium(undefined, {}, [process.execPath]);
    expect(['playwright', 'system']).toContain(found.source);
  });
  it('with nothing installed, names every place it looked and the install command', () => {
    let outcome: string;
    try {
      outcome = findChromium(undefined, {}, []).source;
    } catch (error) {
      outcome = (error as Error).message;
    }
    // Playwright's own browser may be installed on a developer machine; it is not on CI here.
    if (outcome !== 'playwright') {
      expect(outcome).toContain("no Chromium found (looked at ROTE_CHROMIUM, Playwright's browsers, /usr/bin/chromium)");
      expect(outcome).toContain('apt-get update && apt-get install -y chromium');
    }
  });
});

import { describe, expect, it } from 'vitest';
import { disableFeaturesSwitch, foldFeatureSwitches, PLAYWRIGHT_DISABLED_FEATURES, playwrightEnabledFeatures, ROTE_DISABLED_FEATURES } from './chromiumFeatures.js';
import { CHROMIUM_ARGS } from './launch.js';

const featuresOf = (flag: string) => flag.slice(flag.indexOf('=') + 1).split(',');
const BOTH = [...PLAYWRIGHT_DISABLED_FEATURES, ...ROTE_DISABLED_FEATURES];

describe('the feature switches', () => {
  it("carry Playwright's list and rote's, each name once", () => {
    const names = featuresOf(disableFeaturesSwitch(['MediaRouter', 'Translate']));
    expect(names).toEqual(expect.arrayContaining([...BOTH, 'Translate']));
    expect(new Set(names).size).toBe(names.length);
  });
  it('are one --disable-features in CHROMIUM_ARGS, and no --enable-features (Playwright passes its own)', () => {
    expect(CHROMIUM_ARGS.filter((flag) => flag.includes('disable-features'))).toEqual([disableFeaturesSwitch()]);
    expect(CHROMIUM_ARGS.filter((flag) => flag.includes('enable-features') && !flag.includes('disable'))).toEqual([]);
  });
  it("fold a caller's --disable-features into rote's, where the first stood, keeping every name", () => {
    const folded = foldFeatureSwitches(['--headless', disableFeaturesSwitch(), '--mute-audio', '--disable-features=Translate, BackForwardCache', '--disable-features=']);
    expect(folded).toHaveLength(3);
    expect(folded[0]).toBe('--headless');
    expect(folded[2]).toBe('--mute-audio');
    expect(featuresOf(folded[1]!)).toEqual(expect.arrayContaining([...BOTH, 'Translate', 'BackForwardCache']));
    expect(featuresOf(folded[1]!)).not.toContain('');
  });
  it('fold a bare --disable-features or a one-dash one too: neither may empty the list', () => {
    const folded = foldFeatureSwitches([disableFeaturesSwitch(), '--disable-features', '-disable-features=Translate']);
    expect(folded).toHaveLength(1);
    expect(featuresOf(folded[0]!)).toEqual(expect.arrayContaining([...BOTH, 'Translate']));
  });
  it("fold a caller's --enable-features into Playwright's, which it would replace", () => {
    expect(foldFeatureSwitches(['--enable-features=Foo'], {})).toEqual([`--enable-features=${[...playwrightEnabledFeatures({}), 'Foo'].join(',')}`]);
    expect(playwrightEnabledFeatures({})).toContain('CDPScreenshotNewSurface');
    expect(playwrightEnabledFeatures({ PLAYWRIGHT_LEGACY_SCREENSHOT: '1' })).not.toContain('CDPScreenshotNewSurface');
  });
  it('leave arguments without either switch as they are', () => {
    expect(foldFeatureSwitches(['--headless', '--disable-gpu'])).toEqual(['--headless', '--disable-gpu']);
  });
});

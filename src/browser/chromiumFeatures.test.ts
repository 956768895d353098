import { describe, expect, it } from 'vitest';
import { disableFeaturesSwitch, foldDisableFeatures, PLAYWRIGHT_DISABLED_FEATURES, ROTE_DISABLED_FEATURES } from './chromiumFeatures.js';
import { CHROMIUM_ARGS } from './launch.js';

const featuresOf = (flag: string) => flag.slice('--disable-features='.length).split(',');

describe('the --disable-features switch', () => {
  it("carries Playwright's list and rote's, each name once", () => {
    const names = featuresOf(disableFeaturesSwitch(['MediaRouter', 'Translate']));
    expect(names).toEqual(expect.arrayContaining([...PLAYWRIGHT_DISABLED_FEATURES, ...ROTE_DISABLED_FEATURES, 'Translate']));
    expect(new Set(names).size).toBe(names.length);
  });
  it('is the one such switch in CHROMIUM_ARGS', () => {
    const switches = CHROMIUM_ARGS.filter((flag) => flag.startsWith('--disable-features='));
    expect(switches).toEqual([disableFeaturesSwitch()]);
  });
  it("folds a caller's own switches into rote's, where the first stood, keeping every name", () => {
    const folded = foldDisableFeatures(['--headless', disableFeaturesSwitch(), '--mute-audio', '--disable-features=Translate, BackForwardCache', '--disable-features=']);
    expect(folded).toHaveLength(3);
    expect(folded[0]).toBe('--headless');
    expect(folded[2]).toBe('--mute-audio');
    expect(featuresOf(folded[1]!)).toEqual(expect.arrayContaining([...PLAYWRIGHT_DISABLED_FEATURES, ...ROTE_DISABLED_FEATURES, 'Translate', 'BackForwardCache']));
    expect(featuresOf(folded[1]!)).not.toContain('');
  });
  it('leaves arguments without the switch as they are', () => {
    expect(foldDisableFeatures(['--headless', '--enable-features=Foo'])).toEqual(['--headless', '--enable-features=Foo']);
  });
});

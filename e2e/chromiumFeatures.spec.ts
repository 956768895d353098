import { chromium, expect, test, type Browser } from '@playwright/test';
import { PLAYWRIGHT_DISABLED_FEATURES, playwrightEnabledFeatures, ROTE_DISABLED_FEATURES } from '../src/browser/chromiumFeatures.js';
import { findChromium } from '../src/browser/findChromium.js';
import { launchBrowser } from '../src/browser/launch.js';

/**
 * The browser rote launches keeps every feature Playwright turns off, adds its own, and opens no
 * page of Chromium's own UI beside the user's (src/browser/chromiumFeatures.ts says why).
 * Chromium shows its command line to DevTools only under --enable-automation.
 */
async function commandLine(browser: Browser): Promise<string[]> {
  const session = await browser.newBrowserCDPSession();
  const { arguments: args } = (await session.send('Browser.getBrowserCommandLine')) as { arguments: string[] };
  await session.detach();
  return args;
}

const valuesOf = (args: readonly string[], name: string) => args.filter((arg) => arg.startsWith(`--${name}=`)).map((arg) => arg.slice(name.length + 3).split(','));

test("rote's feature switches, the last on the command line, hold Playwright's lists, rote's and the caller's", async () => {
  const plain = await chromium.launch({ executablePath: findChromium().path, args: ['--headless', '--no-sandbox', '--enable-automation'] });
  const playwright = await commandLine(plain);
  await plain.close();
  // Unknown names are ignored by Chromium: RoteTestFeature only shows that the caller's name is kept.
  const browser = await launchBrowser({ args: ['--enable-automation', '--disable-features=Translate', '--enable-features=RoteTestFeature'] });
  const rote = await commandLine(browser);
  await browser.close();

  const [playwrightDisabled] = valuesOf(playwright, 'disable-features');
  const [playwrightEnabled] = valuesOf(playwright, 'enable-features');
  // The copies in chromiumFeatures.ts are Playwright's lists: an upgrade that changes one fails here.
  expect([...PLAYWRIGHT_DISABLED_FEATURES].sort()).toEqual([...playwrightDisabled!].sort());
  expect(playwrightEnabledFeatures().sort()).toEqual([...playwrightEnabled!].sort());
  // Playwright's own switches come first, rote's after them: Chromium reads the last of each.
  const disabled = valuesOf(rote, 'disable-features');
  expect(disabled).toHaveLength(2);
  expect(disabled.at(-1)).toEqual(expect.arrayContaining([...playwrightDisabled!, ...ROTE_DISABLED_FEATURES, 'Translate']));
  const enabled = valuesOf(rote, 'enable-features');
  expect(enabled).toHaveLength(2);
  expect(enabled.at(-1)).toEqual(expect.arrayContaining([...playwrightEnabled!, 'RoteTestFeature']));
});

test("a page in rote's browser has no page of Chromium's own UI beside it", async () => {
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    await page.setContent('<label>Name <input></label>');
    await page.getByLabel('Name').fill('Ada');
    const session = await browser.newBrowserCDPSession();
    const { targetInfos } = (await session.send('Target.getTargets')) as { targetInfos: { type: string; url: string }[] };
    // Chromium 156 opened two chrome://omnibox-popup.top-chrome/ pages for each window before.
    expect(targetInfos.filter((target) => target.type !== 'page').map((target) => target.url)).toEqual([]);
    expect(targetInfos.filter((target) => target.type === 'page')).toHaveLength(1);
  } finally {
    await browser.close();
  }
});

/**
 * The Chromium features rote turns off, in one `--disable-features` switch.
 *
 * Chromium reads only the last `--disable-features` on its command line, and Playwright passes one
 * of its own: a launch that adds a second drops Playwright's. So the switch rote passes carries
 * Playwright's list too (copied from the pinned playwright-core; e2e/chromiumFeatures.spec.ts
 * fails when an upgrade changes it), and `launchBrowser` folds a caller's own `--disable-features`
 * into it instead of letting either replace the other.
 */

/** Playwright 1.65.1's list (playwright-core, server/chromium/chromiumSwitches.ts). */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
] as const;

/**
 * Headless Chromium (the full browser, not the headless shell) loads the address bar's popup, two
 * pages of browser UI (`chrome://omnibox-popup.top-chrome/`), in a renderer of their own for every
 * window, and a Playwright page is a window. Nobody sees them; they cost about a second of CPU per
 * page opened, a third of a test run's CPU on two cores (docs/performance.md, "Chromium's own
 * pages"). Turning them off changes the browser's UI, never a web page.
 */
export const ROTE_DISABLED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'] as const;

const PREFIX = '--disable-features=';

/** One `--disable-features` switch: Playwright's list, rote's, then `more`, each name once. */
export function disableFeaturesSwitch(more: readonly string[] = []): string {
  return `${PREFIX}${[...new Set([...PLAYWRIGHT_DISABLED_FEATURES, ...ROTE_DISABLED_FEATURES, ...more])].join(',')}`;
}

/**
 * `args` with every `--disable-features` switch in it folded into one, placed where the first was:
 * what each switch disables stays disabled, whichever came last.
 */
export function foldDisableFeatures(args: readonly string[]): string[] {
  const named = args.filter((arg) => arg.startsWith(PREFIX)).flatMap((arg) => arg.slice(PREFIX.length).split(','));
  const first = args.findIndex((arg) => arg.startsWith(PREFIX));
  if (first === -1) return [...args];
  const folded = disableFeaturesSwitch(named.map((name) => name.trim()).filter((name) => name !== ''));
  return args.flatMap((arg, index) => (index === first ? [folded] : arg.startsWith(PREFIX) ? [] : [arg]));
}

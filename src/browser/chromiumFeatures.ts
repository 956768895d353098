/**
 * The Chromium features rote turns off, and how a caller's feature switches join Playwright's.
 *
 * Chromium reads only the last `--disable-features` and the last `--enable-features` on its
 * command line, and Playwright passes one of each: a launch that adds another drops Playwright's
 * list. So the switch rote passes carries Playwright's disabled list too (copied from the pinned
 * playwright-core; e2e/chromiumFeatures.spec.ts fails when an upgrade changes it), and
 * `launchBrowser` folds a caller's own switches into one each that keeps Playwright's names.
 */

/** Playwright 1.65.1's disabled list (playwright-core, server/chromium/chromiumSwitches.ts). */
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
 * Playwright 1.65.1's enabled list, as it builds it: `CDPScreenshotNewSurface` (a capture took 29 ms
 * with it and 46 without, docs/performance.md) unless PLAYWRIGHT_LEGACY_SCREENSHOT is set.
 */
export function playwrightEnabledFeatures(env: NodeJS.ProcessEnv = process.env): string[] {
  return [...(env.PLAYWRIGHT_LEGACY_SCREENSHOT ? [] : ['CDPScreenshotNewSurface']), 'SkipListAccountsWithoutGaiaCookies'];
}

/**
 * Headless Chromium (the full browser, not the headless shell) loads the address bar's popup, two
 * pages of browser UI (`chrome://omnibox-popup.top-chrome/`), in a renderer of their own for every
 * window, and a Playwright page is a window. Nobody sees them; they cost about a second of CPU per
 * page opened, a third of a test run's CPU on two cores (docs/performance.md, "Chromium's own
 * pages"). Turning them off changes the browser's UI, never a web page.
 */
export const ROTE_DISABLED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'] as const;

/** What rote's `--disable-features` switch always names: Playwright's list, then rote's. */
const DISABLED_FEATURES = [...PLAYWRIGHT_DISABLED_FEATURES, ...ROTE_DISABLED_FEATURES];

type FeatureSwitch = 'disable-features' | 'enable-features';

/** The names a `--<name>=…` switch lists (also one-dash, or with no value); undefined for other args. */
function namesIn(arg: string, name: FeatureSwitch): string[] | undefined {
  const match = new RegExp(`^--?${name}(?:=(.*))?$`).exec(arg);
  if (!match) return undefined;
  return (match[1] ?? '').split(',').map((feature) => feature.trim()).filter((feature) => feature !== '');
}

function featureSwitch(name: FeatureSwitch, features: readonly string[]): string {
  return `--${name}=${[...new Set(features)].join(',')}`;
}

/** One `--disable-features` switch: Playwright's list, rote's, then `more`, each name once. */
export function disableFeaturesSwitch(more: readonly string[] = []): string {
  return featureSwitch('disable-features', [...DISABLED_FEATURES, ...more]);
}

/** `args` with every switch called `name` folded into one, where the first stood, with `base` first. */
function fold(args: readonly string[], name: FeatureSwitch, base: readonly string[]): string[] {
  const named = args.map((arg) => namesIn(arg, name));
  const first = named.findIndex((names) => names !== undefined);
  if (first === -1) return [...args];
  const folded = featureSwitch(name, [...base, ...named.flatMap((names) => names ?? [])]);
  return args.flatMap((arg, index) => (index === first ? [folded] : named[index] !== undefined ? [] : [arg]));
}

/**
 * `args` with every `--disable-features` folded into one that keeps Playwright's and rote's names,
 * and every `--enable-features` into one that keeps Playwright's: what each switch names stays
 * named, whichever came last. Without an `--enable-features`, none is added (Playwright's own stands).
 */
export function foldFeatureSwitches(args: readonly string[], env: NodeJS.ProcessEnv = process.env): string[] {
  return fold(fold(args, 'disable-features', DISABLED_FEATURES), 'enable-features', playwrightEnabledFeatures(env));
}

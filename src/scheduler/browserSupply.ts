import type { Browser } from 'playwright';
import { launchBrowser } from '../browser/launch.js';

/** A browser for unattended runs, launched again when it has died (a crash must not fail every later row). */
export type BrowserSupply = {
  get(): Promise<Browser>;
  /** This browser stopped answering: the next `get` launches another; it is closed in the background. */
  discard(browser: Browser): void;
  close(): Promise<void>;
};

/**
 * One browser at a time: callers that find it dead together (every worker of a batch after a
 * crash) share the one relaunch, so no extra browser is left running to keep the process alive.
 * Every browser it launched is closed by `close()`.
 */
export function browserSupply(launch: () => Promise<Browser>): BrowserSupply {
  let current: Promise<Browser> | undefined;
  const launched: Promise<Browser>[] = [];
  const discarded = new WeakSet<Browser>();
  const launchOne = () => {
    const browser = launch();
    launched.push(browser);
    return browser;
  };
  return {
    get() {
      // Chained on the last one, so that callers finding it dead together share one replacement.
      const previous = current;
      current = previous
        ? previous.then(
            (browser) => (browser.isConnected() && !discarded.has(browser) ? browser : launchOne()),
            () => launchOne(),
          )
        : launchOne();
      return current;
    },
    discard(browser) {
      discarded.add(browser);
      void browser.close().catch(() => undefined);
    },
    async close() {
      current = undefined;
      const browsers = await Promise.all(launched.splice(0).map((browser) => browser.catch(() => undefined)));
      await Promise.all(browsers.map((browser) => browser?.close().catch(() => undefined)));
    },
  };
}

/**
 * The supply rote's unattended commands use: Chromium (see launchBrowser) without Playwright's own
 * SIGINT, SIGTERM and SIGHUP handlers, which would close the browser under a run in progress (or
 * exit 130) before the command's clean stop lets that run finish its step.
 */
export function unattendedBrowsers(options: { headless?: boolean } = {}): BrowserSupply {
  return browserSupply(() => launchBrowser({ headless: options.headless ?? true, handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false }));
}

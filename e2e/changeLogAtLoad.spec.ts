import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { scriptedAgent } from '../src/agent/scriptedAgent.js';
import { Rote } from '../src/rote.js';
import { unwatchEachDocument, watchEachDocument } from '../src/checks/pageChanges.js';
import { beforeAction, settle } from '../src/checks/settle.js';
import { deadlineIn } from '../src/progress/deadline.js';

/**
 * During a run every new document of its page keeps the change log from its DOMContentLoaded
 * (src/checks/pageChanges.ts, watchEachDocument), so settling's quiet period on a new document
 * runs from then instead of from rote's first question. What must hold: the log is there before
 * the page's own DOMContentLoaded listeners run, and sees what they change; settling after a
 * navigation still waits for a change the new document makes after that; and once the run lets
 * the page go, no new document gets the log unasked.
 */
const ORIGIN = 'http://rote.test';

type Seen = { installed: boolean; installedBeforeOwnListener: boolean; loggedIds: string[] };

async function serve(page: Page): Promise<void> {
  await page.route(`${ORIGIN}/**`, (route) => {
    const url = new URL(route.request().url());
    if (url.pathname === '/next') {
      // The page's own listener (registered by the page's first script), then a change every 10 ms for 60 ms after it.
      return route.fulfill({
        contentType: 'text/html',
        body: `<script>
          document.addEventListener('DOMContentLoaded', function () {
            window.__logBeforeOwn = !!window.__roteChangeLog;
            var p = document.createElement('p'); p.id = 'built'; p.textContent = 'built at load'; document.body.appendChild(p);
            var n = 0, step = function () { if (++n < 6) { p.textContent = 'built, part ' + n; setTimeout(step, 10); } else { var q = document.createElement('p'); q.id = 'late'; q.textContent = 'late'; document.body.appendChild(q); } };
            setTimeout(step, 10);
          });
        </script><h1>Next</h1>`,
      });
    }
    return route.fulfill({ contentType: 'text/html', body: `<a id="go" href="/next">Go</a>` });
  });
}

async function seen(page: Page): Promise<Seen> {
  return page.evaluate(() => {
    const log = (window as unknown as { __roteChangeLog?: { events: { el: Element }[] } }).__roteChangeLog;
    return {
      installed: log !== undefined,
      installedBeforeOwnListener: (window as unknown as { __logBeforeOwn?: boolean }).__logBeforeOwn === true,
      loggedIds: log ? log.events.map((event) => event.el.id).filter(Boolean) : [],
    };
  });
}

test('a new document keeps the change log from its DOMContentLoaded, ahead of its own listeners', async ({ page }) => {
  await serve(page);
  await page.goto(`${ORIGIN}/`);
  await watchEachDocument(page);
  await page.click('#go');
  await page.waitForURL(`${ORIGIN}/next`);
  await page.waitForSelector('#built');
  const now = await seen(page);
  expect(now.installed).toBe(true);
  expect(now.installedBeforeOwnListener).toBe(true);
  expect(now.loggedIds).toContain('built');
});

test('settling after a navigation waits for what the new document changes after DOMContentLoaded', async ({ page }) => {
  await serve(page);
  await page.goto(`${ORIGIN}/`);
  await watchEachDocument(page);
  for (let i = 0; i < 5; i++) {
    await page.goto(`${ORIGIN}/`);
    const before = beforeAction(page);
    const box = (await page.locator('#go').boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await settle(page, before, deadlineIn(5000), { provisional: true });
    // Each change comes well inside the 40 ms quiet period after the one before, from DOMContentLoaded on: settled only after the last.
    expect(await page.locator('#late').count(), `repeat ${i + 1}`).toBe(1);
  }
});

test('once the run lets the page go, new documents do not get the change log', async ({ page }) => {
  await serve(page);
  await page.goto(`${ORIGIN}/`);
  await watchEachDocument(page);
  await unwatchEachDocument(page, deadlineIn(5000));
  await page.goto(`${ORIGIN}/next`);
  expect((await seen(page)).installed).toBe(false);
});

test('a run, recorded and then replayed across a new document, leaves no change log on the page for the documents after it', async ({ page }) => {
  await serve(page);
  const rote = await Rote.open({ store: join(mkdtempSync(join(tmpdir(), 'rote-log-at-load-')), 'rote.db') });
  try {
    for (const expected of ['agent', 'replayed'] as const) {
      await page.goto(`${ORIGIN}/`);
      const box = (await page.locator('#go').boundingBox())!;
      const agent = scriptedAgent([{ actions: [{ type: 'click', x: box.x + 5, y: box.y + 5 }], intent: 'Go on' }, { done: true }]);
      const result = await rote.run(page, { task: 'Go to the next page', params: {}, agent });
      expect(result.status, result.error).toBe(expected);
      expect(page.url()).toBe(`${ORIGIN}/next`);
      // The run's own document had it (settling asked); the next one the page loads does not.
      await page.goto(`${ORIGIN}/next`);
      expect((await seen(page)).installed).toBe(false);
    }
  } finally {
    await rote.close();
  }
});

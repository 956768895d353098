import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { scriptedAgent } from '../src/agent/scriptedAgent.js';
import { Rote } from '../src/rote.js';
import { ChangeLogAtLoad, watchChanges } from '../src/checks/pageChanges.js';
import { beforeAction, settle } from '../src/checks/settle.js';
import { deadlineIn } from '../src/progress/deadline.js';

/**
 * During a run every new document of its page keeps the change log from its DOMContentLoaded
 * (src/checks/pageChanges.ts, ChangeLogAtLoad), so settling's quiet period on a new document runs
 * from then instead of from rote's first question. What must hold: the log is there before the
 * page's own DOMContentLoaded listeners run, and sees what they change; the page's own events at
 * load (an autofocus, a box it ticks) are not taken for the run's input; settling after a
 * navigation still waits for changes the new document makes after load; and once the run lets the
 * page go, no new document gets the log.
 */
const ORIGIN = 'http://rote.test';

type Seen = { installed: boolean; atLoad: boolean; listening: boolean; installedBeforeOwnListener: boolean; loggedIds: string[]; boxTouched: boolean; formFound: boolean };

async function serve(page: Page): Promise<void> {
  await page.route(`${ORIGIN}/**`, (route) => {
    const url = new URL(route.request().url());
    if (url.pathname === '/status') {
      // The page writes its status at load; a click writes it at once and again 20 ms later.
      return route.fulfill({
        contentType: 'text/html',
        body: `<script>
          document.addEventListener('DOMContentLoaded', function () { document.getElementById('status').textContent = 'Ready'; });
        </script><p id="status">...</p>
        <button id="save" onclick="var s = document.getElementById('status'); s.textContent = 'Saving'; setTimeout(function () { s.textContent = 'Saved'; }, 20);">Save</button>`,
      });
    }
    if (url.pathname === '/next') {
      // The page's own listener (registered by the page's first script): it builds, ticks a box as
      // a restored draft would (with a change event), then changes the page three times 10 ms apart.
      return route.fulfill({
        contentType: 'text/html',
        body: `<script>
          document.addEventListener('DOMContentLoaded', function () {
            window.__logBeforeOwn = !!window.__roteChangeLog;
            var p = document.createElement('p'); p.id = 'built'; p.textContent = 'built at load'; document.body.appendChild(p);
            var box = document.getElementById('urgent'); box.checked = true; box.dispatchEvent(new Event('change', { bubbles: true }));
            var n = 0, step = function () { if (++n < 3) { p.textContent = 'built, part ' + n; setTimeout(step, 10); } else { var q = document.createElement('p'); q.id = 'late'; q.textContent = 'late'; document.body.appendChild(q); } };
            setTimeout(step, 10);
          });
        </script><h1>Next</h1><form id="f"><input id="name" autofocus><input id="urgent" type="checkbox"></form>`,
      });
    }
    return route.fulfill({ contentType: 'text/html', body: `<a id="go" href="/next">Go</a>` });
  });
}

async function seen(page: Page): Promise<Seen> {
  return page.evaluate(() => {
    type Log = { events: { el: Element }[]; atLoad: boolean; listening: boolean; touched: WeakSet<Element>; formsAsFound: WeakMap<Element, unknown> };
    const log = (window as unknown as { __roteChangeLog?: Log }).__roteChangeLog;
    const box = document.getElementById('urgent');
    const form = document.getElementById('f');
    return {
      installed: log !== undefined,
      atLoad: log?.atLoad === true,
      listening: log?.listening === true,
      installedBeforeOwnListener: (window as unknown as { __logBeforeOwn?: boolean }).__logBeforeOwn === true,
      loggedIds: log ? log.events.map((event) => event.el.id).filter(Boolean) : [],
      boxTouched: log !== undefined && box !== null && log.touched.has(box),
      formFound: log !== undefined && form !== null && log.formsAsFound.has(form),
    };
  });
}

test('a new document keeps the change log from its DOMContentLoaded, ahead of its own listeners', async ({ page }) => {
  const logs = await watchedPage(page);
  await page.click('#go');
  await page.waitForURL(`${ORIGIN}/next`);
  await page.waitForSelector('#built');
  const now = await seen(page);
  expect(now).toMatchObject({ installed: true, atLoad: true, installedBeforeOwnListener: true });
  expect(now.loggedIds).toContain('built');
  await logs.end(deadlineIn(5000));
});

test("the page's own events at load (an autofocus, a box it ticks) are not taken for the run's input", async ({ page }) => {
  const logs = await watchedPage(page);
  await page.click('#go');
  await page.waitForSelector('#late');
  expect(await seen(page)).toMatchObject({ atLoad: true, listening: false });
  // rote's first question adds the listeners for the run's input: the box the page ticked is no control the run set,
  // and the form as found is read at the run's first input, not at the page's autofocus.
  await watchChanges(page);
  expect(await seen(page)).toMatchObject({ listening: true, boxTouched: false, formFound: false });
  await page.locator('#name').press('a');
  expect(await seen(page)).toMatchObject({ boxTouched: false, formFound: true });
  await logs.end(deadlineIn(5000));
});

test('what the page wrote as it arrived is not taken for motion: a click within 1.5 s of load that changes it again is waited for', async ({ page }) => {
  const logs = await watchedPage(page);
  for (let i = 0; i < 5; i++) {
    await page.goto(`${ORIGIN}/status`);
    // rote's first question on the document, as the settle after a navigation asks it.
    await watchChanges(page);
    expect(await seen(page)).toMatchObject({ atLoad: true, listening: true });
    const before = beforeAction(page);
    const box = (await page.locator('#save').boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await settle(page, before, deadlineIn(5000));
    expect(await page.textContent('#status'), `repeat ${i + 1}`).toBe('Saved');
  }
  await logs.end(deadlineIn(5000));
});

/** The page served and at its start, its new documents watched once the script is in place (a run does not wait: its first step's checks come first). */
async function watchedPage(page: Page): Promise<ChangeLogAtLoad> {
  await serve(page);
  await page.goto(`${ORIGIN}/`);
  const logs = new ChangeLogAtLoad();
  await logs.watch(page);
  return logs;
}

test('settling after a navigation waits for what the new document changes after DOMContentLoaded', async ({ page }) => {
  const logs = await watchedPage(page);
  for (let i = 0; i < 5; i++) {
    await page.goto(`${ORIGIN}/`);
    const before = beforeAction(page);
    const box = (await page.locator('#go').boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await settle(page, before, deadlineIn(5000), { provisional: true });
    // Each change comes well inside the 40 ms quiet period after the one before, from DOMContentLoaded on: settled only after the last.
    expect(await page.locator('#late').count(), `repeat ${i + 1}`).toBe(1);
  }
  await logs.end(deadlineIn(5000));
});

test('once the run lets the page go, new documents do not get the change log, nor a window met after', async ({ page, context }) => {
  const logs = await watchedPage(page);
  await logs.end(deadlineIn(5000));
  await page.goto(`${ORIGIN}/next`);
  expect((await seen(page)).installed).toBe(false);
  const late = await context.newPage();
  await serve(late);
  await logs.watch(late);
  await late.goto(`${ORIGIN}/next`);
  expect((await seen(late)).installed).toBe(false);
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
      // The document the run loaded had it from its DOMContentLoaded; the next one the page loads has none.
      expect((await seen(page)).atLoad).toBe(true);
      await page.goto(`${ORIGIN}/next`);
      expect((await seen(page)).installed).toBe(false);
    }
  } finally {
    await rote.close();
  }
});

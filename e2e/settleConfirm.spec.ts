import { expect, test as base, type Page } from '@playwright/test';
import { watchChanges } from '../src/checks/pageChanges.js';
import { beforeAction, settle } from '../src/checks/settle.js';
import { confirmSettled } from '../src/checks/settleConfirm.js';
import { deadlineIn } from '../src/progress/deadline.js';
import { appTest } from './support/appTest.js';
import { oracleAgent } from './support/oracleAgent.js';
import { startTrickyApp } from './support/trickyApp.js';

/**
 * A cached step that stays on its document may be found settled before the tasks its action
 * queued have run (src/checks/settleConfirm.ts): the next step's checks run meanwhile, and count
 * only once a sentinel queued behind those tasks confirms the page did not change. Each case is a
 * reaction that comes after the click, in a task or later; whatever the timing, once settled and
 * confirmed the page must show it, as the usual settle would have. Repeated, as the race varies.
 */
const REPEATS = 12;

const ORIGIN = 'http://rote.test';
const REACTIONS: Record<string, { onclick: string; shows: (page: Page) => Promise<boolean> }> = {
  'a task that changes the page': {
    onclick: `setTimeout(function () { document.getElementById('out').textContent = 'changed'; }, 0)`,
    shows: async (page) => (await page.textContent('#out')) === 'changed',
  },
  "a form sent by script (no submit event)": {
    onclick: `document.getElementById('f').submit()`,
    shows: async (page) => page.url().endsWith('/sent'),
  },
};

async function open(page: Page, onclick: string): Promise<void> {
  await page.route(`${ORIGIN}/**`, (route) => {
    const url = route.request().url();
    if (url.endsWith('/sent')) return route.fulfill({ contentType: 'text/html', body: '<p>Sent</p>' });
    return route.fulfill({
      contentType: 'text/html',
      body: `<form id="f" method="post" action="/sent"></form><input id="field"> <button id="b" type="button" onclick="${onclick.replace(/"/g, '&quot;')}">Go</button><div id="out">before</div>`,
    });
  });
  await page.goto(`${ORIGIN}/`);
  // The change log is on the document and quiet, as after the step before.
  await watchChanges(page);
  await page.waitForTimeout(60);
}

for (const [name, reaction] of Object.entries(REACTIONS)) {
  base(`${name}, after the click: shown once the page is settled and confirmed`, async ({ page }) => {
    for (let i = 0; i < REPEATS; i++) {
      await open(page, reaction.onclick);
      const before = beforeAction(page);
      await page.mouse.click(...(await center(page, '#b')));
      const settled = await settle(page, before, deadlineIn(5000), { provisional: true });
      if (settled === 'provisional') await confirmSettled(page, before, deadlineIn(5000));
      await page.waitForLoadState('domcontentloaded');
      expect(await reaction.shows(page), `repeat ${i + 1} (${settled})`).toBe(true);
    }
  });
}

base('a click with no reaction is settled at once, and the confirmation holds', async ({ page }) => {
  const outcomes: string[] = [];
  for (let i = 0; i < REPEATS; i++) {
    await open(page, '');
    const before = beforeAction(page);
    await page.mouse.click(...(await center(page, '#field')));
    const settled = await settle(page, before, deadlineIn(5000), { provisional: true });
    outcomes.push(settled === 'provisional' ? String(await confirmSettled(page, before, deadlineIn(5000))) : settled);
  }
  // Not every time on a busy machine (a request of the page's own may land in the window), but the fast way is taken.
  expect(outcomes.filter((outcome) => outcome === 'true').length, outcomes.join(', ')).toBeGreaterThan(REPEATS / 2);
});

base('a submit button: settling does not stop before the navigation its form queued', async ({ page }) => {
  for (let i = 0; i < REPEATS; i++) {
    await open(page, '');
    await page.evaluate(`document.getElementById('f').innerHTML = '<button id="s" type="submit">Send</button>'`);
    const before = beforeAction(page);
    await page.mouse.click(...(await center(page, '#s')));
    expect(await settle(page, before, deadlineIn(5000), { provisional: true })).not.toBe('provisional');
    expect(page.url()).toBe(`${ORIGIN}/sent`);
  }
});

async function center(page: Page, selector: string): Promise<[number, number]> {
  const box = (await page.locator(selector).boundingBox())!;
  return [box.x + box.width / 2, box.y + box.height / 2];
}

const test = appTest(startTrickyApp);

test('a button put where the next target stood, by a task the click queued, is never clicked: the checks are done again on the settled page', async ({ app, runOn }) => {
  const run = (mode: 'auto' | 'replay-only') => runOn('/consent', { task: 'Agree and continue', params: {}, mode, agent: (page) => oracleAgent(page) });
  await run('auto');
  expect(app.done.at(-1)!.fields.choice).toBe('continue');
  app.set({ consentLater: 'delete-in-place' });
  for (let i = 0; i < 6; i++) {
    const result = await run('auto');
    expect(result.status, result.error).not.toBe('failed');
  }
  expect(app.done.map((done) => done.fields.choice)).not.toContain('delete');
  expect(app.done.every((done) => done.fields.choice === 'continue' && done.fields.agree === 'yes')).toBe(true);
});

test('a box ticked by a task the click queued, with no change the DOM shows, is not clicked again: the last look sees it ticked', async ({ app, runOn }) => {
  const run = (mode: 'auto' | 'replay-only') => runOn('/consent', { task: 'Agree, ask for a copy and continue', params: {}, mode, agent: (page) => oracleAgent(page) });
  await run('auto');
  expect(app.done.at(-1)!.fields).toMatchObject({ agree: 'yes', copy: 'yes', choice: 'continue' });
  // Ticked by its property in a task after the click on "I agree": the sentinel sees no change,
  // and checks that read the box before that task see it unticked; clicking it would untick it.
  app.set({ consentLater: 'tick-copy' });
  for (let i = 0; i < 6; i++) {
    const result = await run('auto');
    expect(result.status, result.error).not.toBe('failed');
  }
  expect(app.done.slice(1).map((done) => done.fields.copy ?? 'not sent')).toEqual(Array(6).fill('yes'));
});

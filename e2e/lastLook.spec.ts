import { expect, test, type Page } from '@playwright/test';
import type { Action } from '../src/actions/action.js';
import type { Target } from '../src/checks/fingerprint.js';
import { watchChanges } from '../src/checks/pageChanges.js';
import { beforeAction, settle } from '../src/checks/settle.js';
import { confirmSettled } from '../src/checks/settleConfirm.js';
import { focusedTarget, targetAt } from '../src/checks/target.js';
import { lookAtRead, stillAsChecked } from '../src/engine/lastLook.js';
import { deadlineIn } from '../src/progress/deadline.js';

/**
 * The last look in one evaluation (src/engine/lastLook.ts): at the very element the target's read
 * found, where what the settle's sentinel saw still holds. Each case changes the page after the
 * read in a way the change log sees or does not see; the look must never say `same` for a page
 * the full look would not pass, and falls back to the full look (`unknown`) where it cannot tell.
 */
const PAGE = `<!doctype html><html><body style="margin:0;font:14px Arial">
<div id="pane" style="height:120px;overflow:auto;border:1px solid #999"><div style="height:30px"></div>
<label><input type="checkbox" id="tick"> Tick</label><br><input id="name" aria-label="Name"><div style="height:300px"></div></div>
<button id="other" type="button">Other</button>
<fancy-box id="fancy" tabindex="0" role="checkbox" aria-label="Fancy" style="display:inline-block;width:80px;height:20px;background:#eee"></fancy-box>
<script>customElements.define('fancy-box', class extends HTMLElement {});</script>
</body></html>`;

const deadline = () => deadlineIn(5000);

/** A click at the element's middle, settled for now and confirmed, as a cached step leaves the page before the next step's checks. */
async function clickSettled(page: Page, selector: string): Promise<Action> {
  const box = (await page.locator(selector).boundingBox())!;
  const action: Action = { type: 'click', x: Math.round(box.x + box.width / 2), y: Math.round(box.y + box.height / 2), button: 'left' };
  const before = beforeAction(page);
  await page.mouse.click(action.x, action.y);
  expect(await settle(page, before, deadline(), { provisional: true })).toBe('provisional');
  expect(await confirmSettled(page, before, deadline())).toBe(true);
  return action;
}

async function readAt(page: Page, action: Action): Promise<Target> {
  const target = action.type === 'click' ? await targetAt(page, action, { deadline: deadline() }) : await focusedTarget(page, { deadline: deadline() });
  expect(target?.read).toBeDefined();
  return target!;
}

test.beforeEach(async ({ page }) => {
  await page.setContent(PAGE);
  await watchChanges(page);
});

test('nothing changed since the read: the one evaluation says the target is the one checked', async ({ page }) => {
  const action = await clickSettled(page, '#name');
  const target = await readAt(page, action);
  expect(await lookAtRead(page, action, target, target.read!, deadline())).toBe('same');
  expect(await stillAsChecked(page, action, target, deadline())).toBe(true);
  // Typing goes where the focus is: the focused element is the one read.
  const typing: Action = { type: 'type', text: 'x' };
  const focused = await readAt(page, typing);
  expect(await lookAtRead(page, typing, focused, focused.read!, deadline())).toBe('same');
});

test('a box ticked through its property (no change the change log sees) is not the box checked', async ({ page }) => {
  await clickSettled(page, '#other');
  const boxAction: Action = { type: 'click', ...(await centre(page, '#tick')), button: 'left' };
  const target = await readAt(page, boxAction);
  await page.evaluate(`document.getElementById('tick').checked = true`);
  expect(await lookAtRead(page, boxAction, target, target.read!, deadline())).toBe('differs');
  expect(await stillAsChecked(page, boxAction, target, deadline())).toBe(false);
});

test('a target moved by scrolling its pane (no change the change log sees, the window unscrolled) is not where it was checked', async ({ page }) => {
  await clickSettled(page, '#other');
  const fieldAction: Action = { type: 'click', ...(await centre(page, '#name')), button: 'left' };
  const target = await readAt(page, fieldAction);
  await page.evaluate(`document.getElementById('pane').scrollTop = 12`);
  expect(await lookAtRead(page, fieldAction, target, target.read!, deadline())).toBe('differs');
  expect(await stillAsChecked(page, fieldAction, target, deadline())).toBe(false);
});

test('a page changed since the sentinel (a twin put in the field\'s place) is left to the full look, which sees another element', async ({ page }) => {
  await clickSettled(page, '#other');
  const fieldAction: Action = { type: 'click', ...(await centre(page, '#name')), button: 'left' };
  const target = await readAt(page, fieldAction);
  await page.evaluate(`(function () { var f = document.getElementById('name'); var twin = f.cloneNode(true); f.replaceWith(twin); })()`);
  expect(await lookAtRead(page, fieldAction, target, target.read!, deadline())).toBe('unknown');
  expect(await stillAsChecked(page, fieldAction, target, deadline())).toBe(false);
});

test('a custom element (whose own script may set its role and state with no attribute) is left to the full look', async ({ page }) => {
  await clickSettled(page, '#other');
  const fancyAction: Action = { type: 'click', ...(await centre(page, '#fancy')), button: 'left' };
  const target = await readAt(page, fancyAction);
  expect(await lookAtRead(page, fancyAction, target, target.read!, deadline())).toBe('unknown');
  expect(await stillAsChecked(page, fancyAction, target, deadline())).toBe(true);
});

test('a read whose element the page no longer keeps (many reads later) is left to the full look', async ({ page }) => {
  await clickSettled(page, '#other');
  const fieldAction: Action = { type: 'click', ...(await centre(page, '#name')), button: 'left' };
  const target = await readAt(page, fieldAction);
  for (let i = 0; i < 40; i++) await targetAt(page, fieldAction, { deadline: deadline() });
  expect(await lookAtRead(page, fieldAction, target, target.read!, deadline())).toBe('unknown');
  expect(await stillAsChecked(page, fieldAction, target, deadline())).toBe(true);
});

async function centre(page: Page, selector: string): Promise<{ x: number; y: number }> {
  const box = (await page.locator(selector).boundingBox())!;
  return { x: Math.round(box.x + box.width / 2), y: Math.round(box.y + box.height / 2) };
}

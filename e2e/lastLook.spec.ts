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
 * The last look in one round trip (src/engine/lastLook.ts): at the very element the target's read
 * found, and its accessibility node, where what the settle's sentinel saw still holds. Each case
 * changes the page after the read in a way the change log sees or does not see; the look must
 * never say `same` for a page the full look would not pass, and leaves to the full look (`unknown`)
 * what it cannot tell.
 */
const PAGE = `<!doctype html><html><head><style>
#t:checked ~ #go::after { content: " everything"; }
</style></head><body style="margin:0;font:14px Arial">
<div id="pane" style="height:120px;overflow:auto;border:1px solid #999"><div style="height:30px"></div>
<label><input type="checkbox" id="tick"> Tick</label><br><input id="name" aria-label="Name"><div style="height:300px"></div></div>
<button id="other" type="button">Other</button>
<input type="checkbox" id="t" aria-label="All"> <button id="go" type="button" style="width:160px">Delete</button>
<x-action id="fancy" style="display:inline-block;width:120px;height:20px;background:#eee"><span id="inner" style="display:inline-block;width:100px;height:18px">Go on</span></x-action>
<script>
customElements.define('x-action', class extends HTMLElement {
  constructor() { super(); this.internals = this.attachInternals(); this.internals.role = 'button'; this.internals.ariaLabel = 'Continue'; }
});
</script>
</body></html>`;

const deadline = () => deadlineIn(5000);

/** A click at the element's middle, settled for now and confirmed, as a cached step leaves the page before the next step's checks. */
async function clickSettled(page: Page, selector: string): Promise<{ action: Action; actionAt: number }> {
  const action: Action = { type: 'click', ...(await centre(page, selector)), button: 'left' };
  const before = beforeAction(page);
  await page.mouse.click(action.x, action.y);
  expect(await settle(page, before, deadline(), { provisional: true })).toBe('provisional');
  expect(await confirmSettled(page, before, deadline())).toBe(true);
  return { action, actionAt: before.at };
}

async function readAt(page: Page, action: Action): Promise<Target> {
  const target = action.type === 'click' ? await targetAt(page, { x: action.x, y: action.y }, { deadline: deadline() }) : await focusedTarget(page, { deadline: deadline() });
  expect(target?.read).toBeDefined();
  return target!;
}

async function centre(page: Page, selector: string): Promise<{ x: number; y: number }> {
  const box = (await page.locator(selector).boundingBox())!;
  return { x: Math.round(box.x + box.width / 2), y: Math.round(box.y + box.height / 2) };
}

const clickOn = async (page: Page, selector: string): Promise<Action> => ({ type: 'click', ...(await centre(page, selector)), button: 'left' });

test.beforeEach(async ({ page }) => {
  await page.setContent(PAGE);
  await watchChanges(page);
});

test('nothing changed since the read: the one round trip says the target is the one checked', async ({ page }) => {
  const { action, actionAt } = await clickSettled(page, '#name');
  const target = await readAt(page, action);
  expect(await lookAtRead(page, action, target, target.read!, actionAt, deadline())).toBe('same');
  expect(await stillAsChecked(page, action, target, deadline(), actionAt)).toBe(true);
  // Typing goes where the focus is: the focused element is the one read.
  const typing: Action = { type: 'type', text: 'x' };
  const focused = await readAt(page, typing);
  expect(await lookAtRead(page, typing, focused, focused.read!, actionAt, deadline())).toBe('same');
  // A custom element whose role and name are its own script's (no attribute) is read the same way.
  const fancy = await clickOn(page, '#fancy');
  const custom = await readAt(page, fancy);
  expect(custom.fingerprint).toMatchObject({ role: 'button', name: 'Continue' });
  expect(await lookAtRead(page, fancy, custom, custom.read!, actionAt, deadline())).toBe('same');
});

test('a box ticked through its property (no change the change log sees) is not the box checked', async ({ page }) => {
  const { actionAt } = await clickSettled(page, '#other');
  const boxAction = await clickOn(page, '#tick');
  const target = await readAt(page, boxAction);
  await page.evaluate(`document.getElementById('tick').checked = true`);
  expect(await lookAtRead(page, boxAction, target, target.read!, actionAt, deadline())).toBe('differs');
  expect(await stillAsChecked(page, boxAction, target, deadline(), actionAt)).toBe(false);
});

test('a target moved by scrolling its pane (no change the change log sees, the window unscrolled) is not where it was checked', async ({ page }) => {
  const { actionAt } = await clickSettled(page, '#other');
  const fieldAction = await clickOn(page, '#name');
  const target = await readAt(page, fieldAction);
  await page.evaluate(`document.getElementById('pane').scrollTop = 12`);
  expect(await lookAtRead(page, fieldAction, target, target.read!, actionAt, deadline())).toBe('differs');
  expect(await stillAsChecked(page, fieldAction, target, deadline(), actionAt)).toBe(false);
});

test('a name that CSS generates from a property (a box ticked by script) is another target: its accessibility node says so', async ({ page }) => {
  const { actionAt } = await clickSettled(page, '#other');
  const go = await clickOn(page, '#go');
  const target = await readAt(page, go);
  expect(target.fingerprint.name).toBe('Delete');
  await page.evaluate(`document.getElementById('t').checked = true`);
  expect(await lookAtRead(page, go, target, target.read!, actionAt, deadline())).toBe('differs');
  expect(await stillAsChecked(page, go, target, deadline(), actionAt)).toBe(false);
});

test("a custom element's own ARIA changed by its script (no attribute), read through a child it holds, is another target", async ({ page }) => {
  const { actionAt } = await clickSettled(page, '#other');
  const inner = await clickOn(page, '#inner');
  const target = await readAt(page, inner);
  expect(target.fingerprint).toMatchObject({ role: 'button', name: 'Continue' });
  await page.evaluate(`document.getElementById('fancy').internals.ariaLabel = 'Delete my account'`);
  expect(await lookAtRead(page, inner, target, target.read!, actionAt, deadline())).toBe('differs');
  expect(await stillAsChecked(page, inner, target, deadline(), actionAt)).toBe(false);
});

test("a page changed since the sentinel (a twin put in the field's place) is left to the full look, which sees another element", async ({ page }) => {
  const { actionAt } = await clickSettled(page, '#other');
  const fieldAction = await clickOn(page, '#name');
  const target = await readAt(page, fieldAction);
  await page.evaluate(`(function () { var f = document.getElementById('name'); var twin = f.cloneNode(true); f.replaceWith(twin); })()`);
  expect(await lookAtRead(page, fieldAction, target, target.read!, actionAt, deadline())).toBe('unknown');
  expect(await stillAsChecked(page, fieldAction, target, deadline(), actionAt)).toBe(false);
});

test("another action's sentinel, an action with no landing and a read let go are left to the full look", async ({ page }) => {
  const { actionAt } = await clickSettled(page, '#other');
  const fieldAction = await clickOn(page, '#name');
  const target = await readAt(page, fieldAction);
  expect(await lookAtRead(page, fieldAction, target, target.read!, actionAt + 1, deadline())).toBe('unknown');
  expect(await lookAtRead(page, { type: 'wait', ms: 10 }, target, target.read!, actionAt, deadline())).toBe('unknown');
  const at = await centre(page, '#name');
  for (let i = 0; i < 40; i++) await targetAt(page, at, { deadline: deadline() });
  expect(await lookAtRead(page, fieldAction, target, target.read!, actionAt, deadline())).toBe('unknown');
  expect(await stillAsChecked(page, fieldAction, target, deadline(), actionAt)).toBe(true);
});

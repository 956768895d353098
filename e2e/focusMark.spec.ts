import { expect, test } from '@playwright/test';
import { watchChanges } from '../src/checks/pageChanges.js';
import { focusedTarget } from '../src/checks/target.js';
import { deadlineIn } from '../src/progress/deadline.js';
import { markFocus } from '../src/engine/focusKept.js';

/**
 * The mark a typing step takes of the focused element right before its keys (src/engine/focusKept.ts):
 * the page itself, another element than the one the step's checks read (a page that handed the
 * focus on by a timer after the checks), or the checked element itself.
 */
test('the mark says where the focus is against the element the checks read', async ({ page }) => {
  await page.setContent('<label>Note <input id="note"></label> <label>Reference <input id="ref"></label>');
  await watchChanges(page);
  await page.focus('#note');
  const note = (await focusedTarget(page, { deadline: deadlineIn(5000) }))!;
  expect(note.read).toBeDefined();

  const onNote = (await markFocus(page, deadlineIn(5000), note.read))!;
  expect(onNote).toMatchObject({ pageItself: false, elsewhere: false });
  expect(await onNote.kept()).toBe(true);

  // Handed on after the checks read the Note field: the keys would go where no check looked.
  await page.focus('#ref');
  expect(await markFocus(page, deadlineIn(5000), note.read)).toMatchObject({ pageItself: false, elsewhere: true });
  // With no read to hold it against (the checks kept none), nothing is claimed.
  const unread = (await markFocus(page, deadlineIn(5000)))!;
  expect(unread).toMatchObject({ pageItself: false, elsewhere: false });
  unread.dispose();

  // The focus fallen to the page itself.
  await page.evaluate('document.activeElement.blur()');
  expect(await markFocus(page, deadlineIn(5000), note.read)).toMatchObject({ pageItself: true, elsewhere: false });
});

test('a field replaced while the keys went is told: the mark is no longer in its document', async ({ page }) => {
  await page.setContent('<input id="note">');
  await watchChanges(page);
  await page.focus('#note');
  const note = (await focusedTarget(page, { deadline: deadlineIn(5000) }))!;
  const mark = (await markFocus(page, deadlineIn(5000), note.read))!;
  await page.evaluate(`(function () { var old = document.getElementById('note'), copy = old.cloneNode(true); old.replaceWith(copy); copy.focus(); })()`);
  expect(await mark.kept()).toBe(false);
});

test('a page a dialog holds gives no mark, by the run\'s deadline', async ({ page }) => {
  await page.setContent('<input id="note">');
  await page.focus('#note');
  const opened = new Promise<import('@playwright/test').Dialog>((resolve) => page.once('dialog', resolve));
  await page.evaluate('setTimeout(function () { alert("Session ends soon"); }, 0)');
  const dialog = await opened;
  const started = Date.now();
  expect(await markFocus(page, deadlineIn(300))).toBeUndefined();
  expect(Date.now() - started).toBeLessThan(2000);
  await dialog.dismiss();
});

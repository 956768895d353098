import { expect, test } from '@playwright/test';
import { cdpSession } from '../src/checks/cdp.js';
import { callKitOn, evaluateAllKit, evaluateKit, kitFunction, warmDocument } from '../src/checks/pageKit.js';

/**
 * rote's larger in-page functions are sent once per document and called by a short stub after
 * (src/checks/pageKit.ts). Whatever the document has kept, the answer is the function's own: on a
 * new document, in a frame, on a window that refuses new properties, and never another build's.
 */
const ADD = kitFunction('add', 'function (a, b) { window.__kitRuns = (window.__kitRuns || 0) + 1; return a + b; }');
const TAG_AND = kitFunction('tag-and', 'function (suffix) { return this.tagName + suffix; }');
const COUNT = kitFunction('count', 'function (elements, arg) { return elements.length + arg.plus; }');

test('a function is sent whole once per document, then called by its stub; a new document gets it again', async ({ page }) => {
  await page.setContent('<p>one</p>');
  expect(await page.evaluate('typeof window.__roteKit')).toBe('undefined');
  expect(await evaluateKit(page, ADD, [2, 3])).toBe(5);
  expect(await page.evaluate(`typeof window.__roteKit[${JSON.stringify(ADD.key)}]`)).toBe('function');
  expect(await evaluateKit(page, ADD, [4, 5])).toBe(9);
  // Run once each: the stub ran the kept function; it was not run twice by the first call.
  expect(await page.evaluate('window.__kitRuns')).toBe(2);
  // Kept out of sight of a page walking its window.
  expect(await page.evaluate(`Object.keys(window).some(function (k) { return k.indexOf('__rote') === 0; })`)).toBe(false);
  expect(await page.evaluate(`Object.keys(window.__roteKit).length`)).toBe(1);
  await page.goto('about:blank');
  expect(await page.evaluate('typeof window.__roteKit')).toBe('undefined');
  expect(await evaluateKit(page, ADD, [1, 1])).toBe(2);
  expect(await page.evaluate('window.__kitRuns')).toBe(1);
});

test('another source under the same label is another function: a document never runs an older one', async ({ page }) => {
  await page.setContent('<p>one</p>');
  const older = kitFunction('add', 'function (a, b) { return a - b; }');
  expect(await evaluateKit(page, older, [5, 3])).toBe(2);
  expect(await evaluateKit(page, ADD, [5, 3])).toBe(8);
  expect(await evaluateKit(page, older, [5, 3])).toBe(2);
});

test('on an element, with this: the stub passes the element and the arguments', async ({ page }) => {
  await page.setContent('<input id="a"><button>b</button>');
  const cdp = await cdpSession(page);
  for (const selector of ['#a', 'button', '#a']) {
    const found = await cdp.send('Runtime.evaluate', { expression: `document.querySelector('${selector}')` });
    expect(await callKitOn(cdp, TAG_AND, { objectId: found.result.objectId!, arguments: [{ value: '!' }], returnByValue: true })).toBe(`${selector === 'button' ? 'BUTTON' : 'INPUT'}!`);
  }
});

test('over a locator in a frame, whose document keeps its own', async ({ page }) => {
  await page.setContent('<li>1</li><iframe srcdoc="<li>a</li><li>b</li><li>c</li>"></iframe>');
  const frame = page.frames()[1]!;
  await frame.waitForSelector('li');
  expect(await evaluateAllKit<number, { plus: number }>(page.locator('li'), COUNT, { plus: 10 })).toBe(11);
  expect(await evaluateAllKit<number, { plus: number }>(frame.locator('li'), COUNT, { plus: 10 })).toBe(13);
  expect(await evaluateAllKit<number, { plus: number }>(frame.locator('li'), COUNT, { plus: 0 })).toBe(3);
});

test('a window whose kit cannot be made (the name taken, fixed) gets the whole function every time, and its answer', async ({ page }) => {
  await page.setContent('<p>taken</p>');
  await page.evaluate(`Object.defineProperty(window, '__roteKit', { value: null, writable: false, configurable: false })`);
  expect(await evaluateKit(page, ADD, [2, 2])).toBe(4);
  expect(await evaluateKit(page, ADD, [3, 3])).toBe(6);
  expect(await page.evaluate('window.__kitRuns')).toBe(2);
});

test('a document readied ahead keeps every function, runs none, and shows no change in its DOM', async ({ page }) => {
  await page.setContent('<p>one</p><script>window.__changes = 0; new MutationObserver(function (r) { window.__changes += r.length; }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });</script>');
  warmDocument(page);
  await expect.poll(() => page.evaluate(`!!window.__roteKit && typeof window.__roteKit[${JSON.stringify(TAG_AND.key)}] === 'function'`)).toBe(true);
  expect(await page.evaluate(`typeof window.__roteKit[${JSON.stringify(ADD.key)}]`)).toBe('function');
  // Kept, not run; and called by the stub at once.
  expect(await page.evaluate('window.__kitRuns')).toBeUndefined();
  expect(await evaluateKit(page, ADD, [2, 3])).toBe(5);
  expect(await page.evaluate('window.__kitRuns')).toBe(1);
  expect(await page.evaluate('window.__changes')).toBe(0);
  expect(await page.evaluate(`Object.keys(window).some(function (k) { return k.indexOf('__rote') === 0; })`)).toBe(false);
});

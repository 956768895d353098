import { expect, test } from '@playwright/test';
import { beforeAction, settle } from '../src/checks/settle.js';
import { deadlineIn } from '../src/progress/deadline.js';

/**
 * Settling waits for what an action caused, not for a page that never stops moving. Measured by
 * how settling ended (quiet, or still changing at its one-second bound), never by a time.
 */
const PAGE = `<!doctype html><html><body>
<div>Time <span id="clock"></span> <span id="spinner">|</span></div>
<div id="progress">0%</div>
<button id="open" onclick="var n = 0, t = setInterval(function () { var li = document.createElement('li'); li.textContent = 'Row ' + (++n); document.getElementById('rows').appendChild(li); if (n === 6) clearInterval(t); }, 15)">Open</button>
<button id="start" onclick="var v = 0; setInterval(function () { document.getElementById('job').textContent = (++v) + '%'; }, 16)">Start</button>
<ul id="rows"></ul><div id="job"></div>
<script>
var frames = '|/-\\\\', f = 0, p = 0;
setInterval(function () { document.getElementById('spinner').textContent = frames[f++ % 4]; }, 16);
setInterval(function () { p = (p + 1) % 100; document.getElementById('progress').textContent = p + '%'; }, 20);
setInterval(function () { document.getElementById('clock').textContent = new Date().toTimeString().slice(0, 8); }, 1000);
</script></body></html>`;

test('a spinner, a clock and a progress bar that keep moving do not hold up settling after each action', async ({ page }) => {
  await page.setContent(PAGE);
  await page.waitForTimeout(300);
  for (let i = 0; i < 5; i++) {
    const before = beforeAction(page);
    await page.mouse.click(5, 300);
    expect(await settle(page, before, deadlineIn(5000))).toBe('quiet');
  }
});

test('a change the action caused is waited for; a process it started is not waited out', async ({ page }) => {
  await page.setContent(PAGE);
  await page.waitForTimeout(300);
  let before = beforeAction(page);
  await page.click('#open');
  expect(await settle(page, before, deadlineIn(5000))).toBe('quiet');
  // The list the click built in six chunks over 90 ms was waited for to the end.
  expect(await page.locator('#rows li').count()).toBe(6);
  before = beforeAction(page);
  await page.click('#start');
  // The job ticks every 16 ms from now on: after a few changes it is a process, not the click's answer.
  expect(await settle(page, before, deadlineIn(5000))).toBe('quiet');
});

test('a download link says the page is leaving, and the page stays: later steps do not wait out the bound', async ({ page }) => {
  await page.route('http://rote.test/**', (route) =>
    route.request().url().endsWith('/report.csv')
      ? route.fulfill({ body: 'a,b\n1,2\n', headers: { 'Content-Type': 'text/csv', 'Content-Disposition': 'attachment; filename="report.csv"' } })
      : route.fulfill({ contentType: 'text/html', body: '<a id="get" href="/report.csv">Report</a> <button id="b">Next</button>' }),
  );
  await page.goto('http://rote.test/');
  let before = beforeAction(page);
  await page.click('#get');
  expect(await settle(page, before, deadlineIn(5000))).toBe('quiet');
  before = beforeAction(page);
  await page.click('#b');
  expect(await settle(page, before, deadlineIn(5000))).toBe('quiet');
});

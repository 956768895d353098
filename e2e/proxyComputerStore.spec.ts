import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { cli, startCli } from './support/cliProcess.js';
import { computerUseLoop, DISPLAY } from './support/computerUseLoop.js';
import { formBrain, startFormSite, taskOf } from './support/computerUseForm.js';
import { startFakeOpenAI } from './support/fakeOpenAI.js';
import { filesOf } from './support/folderFiles.js';
import { freePort } from './support/freePort.js';

/**
 * `rote proxy` run as a user runs it, with its store on disk: a computer-use agent's steps are kept
 * as crops, never as the screenshots the agent sent, and the key never reaches a byte of the
 * store, its WAL, the log or a report.
 */
const KEY = 'sk-proxy-computer-5d0c2e8a41f7b396';
const OTHER = 'sk-proxy-computer-other-77a1e09c';


/** Every file under `dir` (a store's folder with its WAL, a report), as path and bytes. */
function filesUnder(dir: string): [string, Buffer][] {
  return [...filesOf(dir)].map(([path, bytes]) => [join(dir, path), bytes]);
}

/** Pieces of a PNG's compressed pixels (past its header, which every PNG of one size shares), as bytes and as base64. */
function piecesOf(png: Buffer): Buffer[] {
  const middle = png.subarray(Math.floor(png.length / 2), Math.floor(png.length / 2) + 48);
  return [middle, Buffer.from(png.toString('base64').slice(Math.floor((png.length * 4) / 6), Math.floor((png.length * 4) / 6) + 64))];
}

test.use({ viewport: DISPLAY });

test('rote proxy with a store: a computer-use task is served from it after a restart and from an export imported elsewhere, and neither the key nor a screenshot is in the store, its WAL, the log, an export or a report', async ({ page }) => {
  test.setTimeout(120_000);
  const site = await startFormSite(() => 'plain');
  const upstream = await startFakeOpenAI({ brain: formBrain(page) });
  const dir = mkdtempSync(join(tmpdir(), 'rote-proxy-computer-'));
  const store = join(dir, 'rote.db');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const start = async () => {
    const proxy = startCli(['proxy', '--upstream', upstream.baseURL, '--port', String(port), '--store', store]);
    await proxy.waitFor(/Ctrl\+C stops it/);
    return proxy;
  };
  const run = async (values: { first: string; last: string; email: string }, firstScreenshot = false) => {
    await page.goto(site.origin);
    return computerUseLoop(url, KEY, page, { task: taskOf(values), params: values, form: 'preview', style: 'previous', firstScreenshot });
  };
  try {
    let proxy = await start();
    const first = await run({ first: 'Ada', last: 'Lovelace', email: 'ada@example.com' });
    expect(first.caches.every((cache) => cache === 'miss')).toBe(true);
    proxy.child.kill('SIGINT');
    expect(await proxy.exited()).toBe(0);
    const log = proxy.output;

    proxy = await start();
    const calls = upstream.requests.length;
    const second = await run({ first: 'Joan', last: "O'Neil", email: 'joan@example.org' });
    expect(second.caches.slice(0, -1).every((cache) => cache === 'hit'), JSON.stringify(second.reasons)).toBe(true);
    expect(upstream.requests.length - calls).toBe(1);
    // An agent that sends a screenshot with its task: the screenshot is checked, never kept.
    const third = await run({ first: 'Cyrus', last: 'Tanaka', email: 'cy@example.net' }, true);
    expect(third.answer).toBe('The client is saved.');
    const running = filesUnder(dir);
    expect(running.map(([path]) => path)).toContain(`${store}-wal`);
    proxy.child.kill('SIGINT');
    expect(await proxy.exited()).toBe(0);

    // Each task seen to its end is a run: the first the upstream's, the second from the cache but its final message
    // (a screenshot the agent asked for is not a step, nor the final message).
    const stats = JSON.parse((await cli(['stats', '--store', store, '--json'])).stdout.trim().split('\n').at(-1)!) as { proxy: { hits: number }; runs: number; byStatus: Record<string, number>; steps: Record<string, number> };
    expect(stats.proxy.hits).toBe(second.caches.length - 1);
    expect(stats).toMatchObject({ runs: 3, byStatus: { agent: 2, replayed: 1 }, steps: { cached: second.caches.length - 2, agent: first.caches.length - 2 + third.actions.length } });
    expect((await cli(['report', '--store', store, '--out', join(dir, 'report')])).code).toBe(0);
    // The report shows the runs with the task as a template, and the crop of each step.
    const pages = filesUnder(join(dir, 'report')).filter(([path]) => path.endsWith('.html')).map(([, bytes]) => bytes.toString('utf8'));
    const runPage = pages.find((html) => html.includes('rote proxy: Add this client') && html.includes('Mode</dt><dd>proxy') && html.includes('replayed'));
    expect(runPage, 'a run page of the replayed proxy task').toBeDefined();
    expect(runPage).toContain('{{first}}');
    expect(runPage).not.toContain('Joan');
    expect(filesUnder(join(dir, 'report')).filter(([path]) => path.endsWith('.png')).length).toBeGreaterThanOrEqual(second.caches.length - 2);

    // The tree exports and imports like a recording: under another key in another store, it serves there.
    const exported = join(dir, 'computer.json');
    expect((await cli(['proxy', 'export', '--key-env', 'PROXY_KEY', '--out', exported, '--store', store], { env: { PROXY_KEY: KEY } })).code).toBe(0);
    const elsewhere = join(dir, 'elsewhere.db');
    expect((await cli(['proxy', 'import', exported, '--key-env', 'OTHER_KEY', '--store', elsewhere], { env: { OTHER_KEY: OTHER } })).code).toBe(0);
    const imported = startCli(['proxy', '--upstream', upstream.baseURL, '--port', String(port), '--store', elsewhere]);
    await imported.waitFor(/Ctrl\+C stops it/);
    await page.goto(site.origin);
    const calls2 = upstream.requests.length;
    const there = await computerUseLoop(url, OTHER, page, { task: taskOf({ first: 'Dee', last: 'Moss', email: 'dee@example.net' }), params: { first: 'Dee', last: 'Moss', email: 'dee@example.net' }, form: 'preview', style: 'previous' });
    imported.child.kill('SIGINT');
    await imported.exited();
    expect(there.caches.slice(0, -1).every((cache) => cache === 'hit'), JSON.stringify(there.reasons)).toBe(true);
    expect(upstream.requests.length - calls2).toBe(1);

    const screenshots = [...first.screenshots, ...second.screenshots, ...third.screenshots, ...there.screenshots];
    expect(screenshots.length).toBeGreaterThan(10);
    for (const [path, bytes] of [...running, ...filesUnder(dir)]) {
      expect(bytes.includes(KEY), path).toBe(false);
      expect(bytes.includes(OTHER), path).toBe(false);
      for (const screenshot of screenshots) for (const piece of piecesOf(screenshot)) expect(bytes.includes(piece), `${path} holds a screenshot`).toBe(false);
    }
    expect(`${log}${proxy.output}`).not.toContain(KEY);
    expect(`${log}${proxy.output}`).toMatch(/hit: computer step \d+ from the tree/);
  } finally {
    await upstream.close();
    await site.close();
  }
});

import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { ADA, agent, brain, expectedFills, JO } from './support/chatAgent.js';
import { cli, startCli } from './support/cliProcess.js';
import { startFakeOpenAI } from './support/fakeOpenAI.js';

/** `rote proxy` as a user runs it: a process on a port, its trees in the store, cleared by key. */
const KEY = 'sk-proxy-test-3f9a1c77d2e04b8c';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

test('rote proxy keeps its trees in the store across a restart, rote proxy clear forgets one key, and no byte of the store or the log holds the key', async () => {
  test.setTimeout(120_000);
  const upstream = await startFakeOpenAI({ brain });
  const dir = mkdtempSync(join(tmpdir(), 'rote-proxy-'));
  const store = join(dir, 'rote.db');
  const port = await freePort();
  const start = async () => {
    const proxy = startCli(['proxy', '--upstream', upstream.baseURL, '--port', String(port), '--store', store]);
    await proxy.waitFor(/Ctrl\+C stops it/);
    return proxy;
  };
  const url = `http://127.0.0.1:${port}`;
  try {
    let proxy = await start();
    const first = await agent({ url }, ADA, { apiKey: KEY });
    expect(first.caches.every((cache) => cache === 'miss')).toBe(true);
    proxy.child.kill('SIGINT');
    expect(await proxy.exited()).toBe(0);
    const log = proxy.output;

    proxy = await start();
    const second = await agent({ url }, JO, { apiKey: KEY });
    expect(second.caches.every((cache) => cache === 'hit')).toBe(true);
    expect(second.fills).toEqual(expectedFills(JO));
    expect(upstream.requests).toHaveLength(first.caches.length);
    proxy.child.kill('SIGINT');
    expect(await proxy.exited()).toBe(0);

    const stats = await cli(['stats', '--store', store, '--json']);
    const proxyTotals = (JSON.parse(stats.stdout.trim().split('\n').at(-1)!) as { proxy: { hits: number; tokensSaved: number; replies: number } }).proxy;
    expect(proxyTotals).toMatchObject({ hits: second.caches.length, replies: first.caches.length });
    expect(proxyTotals.tokensSaved).toBeGreaterThan(0);

    const tasks = await cli(['tasks', '--store', store]);
    expect(tasks.stdout).toContain(`rote proxy: ${first.caches.length} replies stored over`);

    for (const file of readdirSync(dir)) expect(readFileSync(join(dir, file)).includes(KEY), file).toBe(false);
    expect(`${log}${proxy.output}`).not.toContain(KEY);
    expect(`${log}${proxy.output}`).toMatch(/hit: \d+ messages, \d+ tokens saved/);

    const cleared = await cli(['proxy', 'clear', '--key-env', 'PROXY_KEY', '--store', store], { env: { PROXY_KEY: KEY } });
    expect(cleared.stdout).toMatch(/^removed \d+ stored messages of the key in \$PROXY_KEY/);
    expect(cleared.code).toBe(0);
    proxy = await start();
    const third = await agent({ url }, JO, { apiKey: KEY });
    expect(third.caches.every((cache) => cache === 'miss')).toBe(true);
    proxy.child.kill('SIGINT');
    await proxy.exited();
  } finally {
    await upstream.close();
  }
});

test('rote proxy checks its arguments before it listens', async () => {
  const missing = await cli(['proxy']);
  expect(missing.code).toBe(2);
  expect(missing.stderr).toContain('rote proxy: give --upstream URL');
  const scheme = await cli(['proxy', '--upstream', 'ftp://example.com']);
  expect(scheme.code).toBe(2);
  expect(scheme.stderr).toContain('expected an http(s) URL');
  const neither = await cli(['proxy', 'clear', '--store', ':memory:']);
  expect(neither.code).toBe(2);
  expect(neither.stderr).toContain('give --key-env VAR');
});

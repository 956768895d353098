import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { ADA, agent, brain, expectedFills, JO } from './support/chatAgent.js';
import { cli, startCli } from './support/cliProcess.js';
import { startFakeOpenAI } from './support/fakeOpenAI.js';
import { filesOf } from './support/folderFiles.js';
import { freePort } from './support/freePort.js';

/** `rote proxy` as a user runs it: a process on a port, its trees in the store, cleared by key. */
const KEY = 'sk-proxy-test-3f9a1c77d2e04b8c';
const OTHER = 'sk-proxy-test-other-0b6e5d21';


/** Every file under `dir` (a store's folder with its WAL, a report), as path and bytes. */
function filesUnder(dir: string): [string, Buffer][] {
  return [...filesOf(dir)].map(([path, bytes]) => [join(dir, path), bytes]);
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
    // While it runs: the store's WAL holds what was written since the last checkpoint.
    const running = filesUnder(dir);
    expect(running.map(([path]) => path)).toContain(`${store}-wal`);
    for (const [path, bytes] of running) expect(bytes.includes(KEY), path).toBe(false);
    proxy.child.kill('SIGINT');
    expect(await proxy.exited()).toBe(0);

    const stats = await cli(['stats', '--store', store, '--json']);
    const proxyTotals = (JSON.parse(stats.stdout.trim().split('\n').at(-1)!) as { proxy: { hits: number; tokensSaved: number; replies: number } }).proxy;
    expect(proxyTotals).toMatchObject({ hits: second.caches.length, replies: first.caches.length });
    expect(proxyTotals.tokensSaved).toBeGreaterThan(0);

    const tasks = await cli(['tasks', '--store', store]);
    expect(tasks.stdout).toContain(`rote proxy: ${first.caches.length} replies stored over`);

    // The report shows the proxy's traffic; an export holds the conversations.
    const report = join(dir, 'report');
    expect((await cli(['report', '--store', store, '--out', report])).code).toBe(0);
    const overview = readFileSync(join(report, 'index.html'), 'utf8');
    expect(overview).toContain('rote proxy');
    expect(overview).toContain(`${second.caches.length} requests answered from the store: ${second.caches.length} upstream calls and ${proxyTotals.tokensSaved} tokens saved.`);
    const exported = join(dir, 'conversations.json');
    const exportRun = await cli(['proxy', 'export', '--key-env', 'PROXY_KEY', '--out', exported, '--store', store, '--json'], { env: { PROXY_KEY: KEY } });
    expect(JSON.parse(exportRun.stdout)).toEqual({ file: exported, conversations: first.caches.length, templates: 0 });

    for (const [path, bytes] of filesUnder(dir)) {
      expect(bytes.includes(KEY), path).toBe(false);
      expect(bytes.includes(`Bearer ${KEY}`), path).toBe(false);
    }
    expect(`${log}${proxy.output}${exportRun.stdout}${exportRun.stderr}`).not.toContain(KEY);
    expect(`${log}${proxy.output}`).toMatch(/hit: \d+ messages from the tree \(node [0-9a-f-]{36}\), \d+ tokens saved/);

    const cleared = await cli(['proxy', 'clear', '--key-env', 'PROXY_KEY', '--store', store], { env: { PROXY_KEY: KEY } });
    expect(cleared.stdout).toMatch(/^removed \d+ stored messages of the key in \$PROXY_KEY/);
    expect(cleared.code).toBe(0);
    proxy = await start();
    const third = await agent({ url }, JO, { apiKey: KEY });
    expect(third.caches.every((cache) => cache === 'miss')).toBe(true);
    proxy.child.kill('SIGINT');
    await proxy.exited();

    // The export brings the conversations into another store, under another key, and they are served there.
    const elsewhere = join(dir, 'elsewhere.db');
    const imported = await cli(['proxy', 'import', exported, '--key-env', 'OTHER_KEY', '--store', elsewhere], { env: { OTHER_KEY: OTHER } });
    expect(imported.stdout).toBe(`Imported ${first.caches.length} conversations and 0 learned templates into the key in $OTHER_KEY.\n`);
    const calls = upstream.requests.length;
    proxy = startCli(['proxy', '--upstream', upstream.baseURL, '--port', String(port), '--store', elsewhere]);
    await proxy.waitFor(/Ctrl\+C stops it/);
    const served = await agent({ url }, ADA, { apiKey: OTHER });
    expect(served.caches.every((cache) => cache === 'hit')).toBe(true);
    expect(served.fills).toEqual(expectedFills(ADA));
    expect(upstream.requests).toHaveLength(calls);
    proxy.child.kill('SIGINT');
    await proxy.exited();

    // One branch forgotten by the node a hit named (the third turn's, at message 6, to the last at 12): the
    // turns above it still hit, the rest go upstream.
    expect(served.nodes.every((node) => node !== null)).toBe(true);
    const branch = await cli(['proxy', 'clear', '--branch', served.nodes[2]!, '--store', elsewhere]);
    expect(branch.stdout).toBe(`removed ${2 * (served.caches.length - 3) + 1} stored messages of the branch at ${served.nodes[2]}\n`);
    proxy = startCli(['proxy', '--upstream', upstream.baseURL, '--port', String(port), '--store', elsewhere]);
    await proxy.waitFor(/Ctrl\+C stops it/);
    const after = await agent({ url }, ADA, { apiKey: OTHER });
    expect(after.caches).toEqual(['hit', 'hit', ...after.caches.slice(2).map(() => 'miss')]);
    proxy.child.kill('SIGINT');
    await proxy.exited();
    expect((await cli(['proxy', 'clear', '--branch', served.nodes[2]!, '--store', elsewhere])).stderr).toContain('no stored message or learned template has the id');
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
  const dir = mkdtempSync(join(tmpdir(), 'rote-proxy-import-'));
  const bad = join(dir, 'bad.json');
  writeFileSync(bad, JSON.stringify({ format: 'rote-proxy-conversations', version: 1, conversations: [{ namespace: 'x', shape: 'y', levels: ['not json'], reply: {} }], templates: [] }));
  const store = join(dir, 'never.db');
  const refused = await cli(['proxy', 'import', bad, '--store', store]);
  expect(refused.code).toBe(2);
  expect(refused.stderr).toContain('conversations.0.namespace: a sha256 in hex');
  expect(refused.stderr).toContain('conversations.0.levels.0: a message as canonical JSON');
  // Refused before the store is opened: nothing was created.
  expect(existsSync(store)).toBe(false);
});

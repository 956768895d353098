/**
 * The proxy's benchmark: `npm run bench:proxy [-- --json]`.
 *   - what the proxy adds to a forwarded request: the same kind of request straight to the scripted
 *     upstream and through the proxy, alternated, each a new conversation (a miss that is kept);
 *   - the time to serve a hit, through the proxy, JSON and streamed;
 *   - a lookup in the store with 100,000 stored conversations (SQLite file).
 * All on this machine against the scripted upstream (e2e/support/fakeOpenAI.ts): medians and
 * percentiles of one run, never a single time.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chatKey, type ChatKey } from '../src/proxy/chatKey.js';
import { levelHash, StoreConversationTree } from '../src/proxy/storeConversationTree.js';
import { startProxy } from '../src/proxy/proxyServer.js';
import { SqliteStore } from '../src/store/sqliteStore.js';
import { startFakeOpenAI, type FakeBrain } from '../e2e/support/fakeOpenAI.js';
import { quantile, round } from './stats.js';

const REQUESTS = 300;
const CONVERSATIONS = 100_000;
const LOOKUPS = 2_000;

type Spread = { p50Ms: number; p99Ms: number };
const spread = (values: number[]): Spread => ({ p50Ms: round(quantile(values, 0.5), 2), p99Ms: round(quantile(values, 0.99), 2) });

const body = (text: string, stream = false) => JSON.stringify({ model: 'gpt-4.1-mini', temperature: 0, stream, messages: [{ role: 'system', content: 'You fill records.' }, { role: 'user', content: text }] });

async function timed(url: string, payload: string): Promise<{ ms: number; cache: string | null }> {
  const started = performance.now();
  const response = await fetch(`${url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench', 'rote-params': '{"first":"Ada"}' }, body: payload });
  await response.arrayBuffer();
  return { ms: performance.now() - started, cache: response.headers.get('rote-cache') };
}

async function overHttp() {
  const upstream = await startFakeOpenAI({ brain: () => ({ message: { content: 'Saved the record of Ada.' } }) });
  const dir = mkdtempSync(join(tmpdir(), 'rote-proxy-bench-'));
  const store = await SqliteStore.open(join(dir, 'rote.db'));
  const proxy = await startProxy({ upstream: new URL(upstream.baseURL), tree: new StoreConversationTree(store.conversations) });
  try {
    const direct: number[] = [];
    const forwarded: number[] = [];
    const added: number[] = [];
    for (let i = 0; i < 20; i++) await timed(upstream.baseURL, body(`warm ${i}`));
    for (let i = 0; i < REQUESTS; i++) {
      const straight = await timed(upstream.baseURL, body(`Register patient ${i} Ada, straight.`));
      const through = await timed(`${proxy.url}/v1`, body(`Register patient ${i} Ada.`));
      if (through.cache !== 'miss') throw new Error(`expected a miss, got ${through.cache}`);
      direct.push(straight.ms);
      forwarded.push(through.ms);
      added.push(through.ms - straight.ms);
    }
    const hits: number[] = [];
    const streamedHits: number[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      const json = await timed(`${proxy.url}/v1`, body(`Register patient ${i % 50} Ada.`));
      const streamed = await timed(`${proxy.url}/v1`, body(`Register patient ${i % 50} Ada.`, true));
      if (json.cache !== 'hit' || streamed.cache !== 'hit') throw new Error('expected hits');
      hits.push(json.ms);
      streamedHits.push(streamed.ms);
    }
    return { requests: REQUESTS, direct: spread(direct), forwarded: spread(forwarded), addedByProxy: spread(added), hit: spread(hits), streamedHit: spread(streamedHits), upstreamCalls: upstream.requests.length };
  } finally {
    await proxy.close();
    await upstream.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A hit through a learned template: two conversations with no declared values teach it, a third
 * confirms it, then each request with a new name and city is read against it and served. The time
 * the client waits.
 */
async function learnedHits() {
  const echo: FakeBrain = ({ body: request }) => {
    const text = String((request.messages as { content: string }[]).at(-1)!.content);
    const [, name, city] = /Register patient (\S+) from (\S+)\./.exec(text) ?? [];
    return { message: { content: `Saved ${name} in ${city}.` } };
  };
  const upstream = await startFakeOpenAI({ brain: echo });
  const dir = mkdtempSync(join(tmpdir(), 'rote-proxy-learned-'));
  const store = await SqliteStore.open(join(dir, 'rote.db'));
  const lines: string[] = [];
  const proxy = await startProxy({ upstream: new URL(upstream.baseURL), tree: new StoreConversationTree(store.conversations), log: (line) => lines.push(line) });
  const logged = async (start: string) => {
    while (!lines.some((line) => line.startsWith(start))) await new Promise((resolve) => setTimeout(resolve, 5));
  };
  const ask = async (name: string, city: string) => {
    const started = performance.now();
    const response = await fetch(`${proxy.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench' }, body: JSON.stringify({ model: 'gpt-4.1-mini', messages: [{ role: 'system', content: 'You register patients.' }, { role: 'user', content: `Register patient ${name} from ${city}.` }] }) });
    const reply = (await response.json()) as { choices: { message: { content: string } }[] };
    return { ms: performance.now() - started, cache: response.headers.get('rote-cache'), text: reply.choices[0]!.message.content };
  };
  try {
    await ask('Ada', 'Waco');
    await ask('Grace', 'Austin');
    await logged('learned:');
    // The first request a new template reads is forwarded, and the upstream's answer checked against it.
    if ((await ask('Zed', 'Yuma')).cache !== 'miss') throw new Error('expected the check to be forwarded');
    await logged('check: the upstream answered as the learned template would have');
    const calls = upstream.requests.length;
    const timings: number[] = [];
    // Names of letters only: a template learned on names reads values of that form.
    const letters = (n: number) => [...n.toString(26)].map((digit) => String.fromCharCode(97 + parseInt(digit, 26))).join('');
    for (let i = 0; i < REQUESTS; i++) {
      const [name, city] = [`Pat${letters(i)}`, `Town${letters(i)}`];
      const answer = await ask(name, city);
      if (answer.cache !== 'hit' || answer.text !== `Saved ${name} in ${city}.`) throw new Error(`expected a learned hit, got ${answer.cache}: ${answer.text}`);
      timings.push(answer.ms);
    }
    return { requests: REQUESTS, ...spread(timings), upstreamCalls: upstream.requests.length - calls };
  } finally {
    await proxy.close();
    await upstream.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** 100,000 conversations of three messages and a reply, stored through the store's own path writes, then looked up. */
async function lookupAtScale() {
  const dir = mkdtempSync(join(tmpdir(), 'rote-proxy-lookup-'));
  const store = await SqliteStore.open(join(dir, 'rote.db'));
  try {
    const tree = new StoreConversationTree(store.conversations);
    const keyOf = (i: number): ChatKey => {
      const key = chatKey({ model: 'gpt-4.1-mini', messages: [{ role: 'system', content: 'You fill records.' }, { role: 'user', content: `Register patient number ${i}.` }, { role: 'assistant', content: `Which city for ${i}?` }, { role: 'user', content: `City ${i % 977}` }] }, new Map());
      if (!key.ok) throw new Error(key.reason);
      return key.value;
    };
    const reply = { model: 'gpt-4.1-mini', finishReason: 'stop' as const, content: 'Saved.', toolCalls: [], usage: { promptTokens: 50, completionTokens: 5 } };
    const fillStarted = performance.now();
    // Many paths per transaction, as a busy proxy's writes would come; each through storePath's rules.
    const batch = 1000;
    for (let from = 0; from < CONVERSATIONS; from += batch) {
      store.db.$client.exec('BEGIN IMMEDIATE');
      for (let i = from; i < from + batch; i++) {
        const key = keyOf(i);
        await store.conversations.storePath({ namespace: 'bench', shape: key.shape, levels: key.levels.map((level) => ({ hash: levelHash(level), level })), reply, at: Date.now(), newId: randomUUID });
      }
      store.db.$client.exec('COMMIT');
    }
    const fillSeconds = (performance.now() - fillStarted) / 1000;
    const timings: number[] = [];
    for (let n = 0; n < LOOKUPS; n++) {
      const key = keyOf(Math.floor(Math.random() * CONVERSATIONS));
      const started = performance.now();
      const found = await tree.lookup('bench', key);
      timings.push(performance.now() - started);
      if (found.kind !== 'hit') throw new Error('expected a hit');
    }
    const totals = await store.conversations.totals();
    return { conversations: CONVERSATIONS, nodes: totals.nodes, lookups: LOOKUPS, ...spread(timings), fillSeconds: round(fillSeconds, 1) };
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const http = await overHttp();
const learned = await learnedHits();
const lookup = await lookupAtScale();
const figures = { measuredAt: new Date().toISOString(), http, learned, lookup };
console.log(`forwarded request (${http.requests}, alternated with the same request straight upstream): straight p50 ${http.direct.p50Ms} ms, through the proxy p50 ${http.forwarded.p50Ms} ms; added by the proxy p50 ${http.addedByProxy.p50Ms} ms, p99 ${http.addedByProxy.p99Ms} ms`);
console.log(`hit served: JSON p50 ${http.hit.p50Ms} ms, p99 ${http.hit.p99Ms} ms; streamed p50 ${http.streamedHit.p50Ms} ms, p99 ${http.streamedHit.p99Ms} ms; upstream calls during the hits: ${http.upstreamCalls - 20 - 2 * http.requests}`);
console.log(`hit through a learned template (no Rote-Params, ${learned.requests} requests with new values): p50 ${learned.p50Ms} ms, p99 ${learned.p99Ms} ms; upstream calls during them: ${learned.upstreamCalls}`);
console.log(`lookup with ${lookup.conversations} stored conversations (${lookup.nodes} messages): p50 ${lookup.p50Ms} ms, p99 ${lookup.p99Ms} ms over ${lookup.lookups} lookups (filled in ${lookup.fillSeconds} s)`);
if (process.argv.includes('--json')) {
  // Run from the project root, as npm run does: the results folder is the source tree's, not dist's.
  writeFileSync(join(process.cwd(), 'bench', 'results', 'proxy.json'), `${JSON.stringify(figures, null, 2)}\n`);
  console.log(JSON.stringify(figures));
}

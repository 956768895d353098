import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RoteError } from '../errors/roteError.js';
import { BoundParams } from '../params/boundParams.js';
import { taskIdentity } from '../params/taskKey.js';
import type { NewNodeRow, NodeRow } from '../store/rows.js';
import { openStore, type Store } from '../store/store.js';
import { filesOf } from '../../e2e/support/folderFiles.js';
import { exportRecording } from './exportRecording.js';
import { importRecording } from './importRecording.js';
import { readRecording } from './readRecording.js';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const cropA = Buffer.concat([PNG, Buffer.from('crop A')]);
const cropB = Buffer.concat([PNG, Buffer.from('crop B')]);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

const ORIGIN = 'http://127.0.0.1:4010';
const TEMPLATE = 'Register {{name}}';
const identity = (origin = ORIGIN) => taskIdentity(TEMPLATE, BoundParams.of({ name: 'Ada' }), ['smoke', 'intake'], `${origin}/intake?ref=abc`, 'test');
const KEY = identity().key;

/** A small tree: a path of four steps (a goto on the origin, another to another site, an end URL) and a detour from the root. */
function trajectory(order: 'forward' | 'shuffled' = 'forward'): { nodes: NewNodeRow[]; blobs: { hash: string; bytes: Buffer }[] } {
  const base = { taskId: KEY, intent: null, fingerprint: null, box: null, cropRect: null, cropHash: null, masks: null, state: null };
  const box = { x: 10, y: 20, width: 100, height: 24 };
  const nodes: NewNodeRow[] = [
    { ...base, id: 'n1', parentId: null, action: { type: 'click', x: 60, y: 32, button: 'left' }, intent: 'Fill "Name"', url: `${ORIGIN}/intake?ref=abc`, fingerprint: { role: 'textbox', name: 'Name', tag: 'input', inputType: 'text' }, box, cropRect: { x: -6, y: -6, width: 112, height: 36 }, cropHash: sha256(cropA), masks: [{ x: 9, y: 9, width: 94, height: 18 }], state: { matches: 1, context: null, ahead: ['name'], valueHashes: {} }, createdAt: 100 },
    { ...base, id: 'n2', parentId: 'n1', action: { type: 'type', text: '{{name}}' }, url: `${ORIGIN}/intake?ref=abc`, cropHash: sha256(cropB), state: { typeMode: 'replace' }, createdAt: 101 },
    { ...base, id: 'n3', parentId: 'n2', action: { type: 'goto', url: `${ORIGIN}/next?x=1#part` }, url: `${ORIGIN}/intake?ref=abc`, createdAt: 102 },
    { ...base, id: 'n4', parentId: 'n3', action: { type: 'goto', url: 'https://other.test/help' }, url: `${ORIGIN}/next?x=1`, createdAt: 103 },
    { ...base, id: 'n5', parentId: 'n4', action: { type: 'click', x: 5, y: 5, button: 'left' }, url: 'https://other.test/help', cropHash: sha256(cropA), endUrl: `${ORIGIN}/done?id=1`, endsRun: true, hits: 7, lastSuccessAt: 5000, createdAt: 104 },
    { ...base, id: 'd1', parentId: null, resumeAtId: 'root', action: { type: 'click', x: 300, y: 200, button: 'left' }, intent: 'Dismiss the popup', url: `${ORIGIN}/intake?ref=abc`, createdAt: 200, lastSuccessAt: 9000 },
  ];
  const blobs = [cropA, cropB].map((bytes) => ({ hash: sha256(bytes), bytes }));
  if (order === 'forward') return { nodes, blobs };
  // The same content written another way: rows in another order, JSON keys in another order, other counters.
  const reordered = (value: unknown): unknown =>
    value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, reordered(v)])) : value;
  return {
    nodes: [...nodes].reverse().map((node) => ({ ...node, action: reordered(node.action), state: reordered(node.state), fingerprint: reordered(node.fingerprint), hits: 3, misses: 2, lastUsedAt: 1, createdAt: node.createdAt + 50_000 })),
    blobs: [...blobs].reverse(),
  };
}

async function fillStore(store: Store, order: 'forward' | 'shuffled' = 'forward'): Promise<void> {
  const { key, template, tags, startUrl } = identity();
  await store.importTrajectories([
    {
      task: { id: key, taskTemplate: template, tags, startUrl, paramNames: order === 'forward' ? ['name', 'dob'] : ['dob', 'name'], paramSchema: order === 'forward' ? { name: { type: 'string' }, dob: { type: 'date', optional: true, inferred: true } } : { dob: { inferred: true, optional: true, type: 'date' }, name: { type: 'string' } }, createdAt: 1, updatedAt: 1 },
      ...trajectory(order),
    },
  ]);
}

/** What a node records, without counters; no masks and no state read as none (an export writes [] and {}). */
const contentOf = (row: NodeRow) => {
  const { createdAt: _c, hits: _h, misses: _m, lastUsedAt: _u, lastSuccessAt: _s, taskId: _t, ...rest } = row;
  return { ...rest, masks: rest.masks ?? [], state: rest.state ?? {} };
};

async function rejection(promise: Promise<unknown>): Promise<RoteError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(RoteError.isInstance(error), `expected a RoteError, got ${String(error)}`).toBe(true);
  return error as RoteError;
}

let dir: string;
let store: Store;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rote-recordings-'));
  store = await openStore(':memory:');
  await fillStore(store);
});

afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('exportRecording', () => {
  it('writes recording.json (versioned, origin-relative URLs, no counters) and the crops by their hash', async () => {
    const out = join(dir, 'rec');
    expect(await exportRecording(store, KEY, out)).toEqual({ nodes: 6, crops: 2 });
    const text = readFileSync(join(out, 'recording.json'), 'utf8');
    const file = JSON.parse(text);
    expect(text).toBe(`${JSON.stringify(file, null, 2)}\n`);
    expect(Object.keys(file)).toEqual(['format', 'version', 'task', 'params', 'origin', 'nodes']);
    expect(file).toMatchObject({
      format: 'rote-recording',
      version: 1,
      task: { template: TEMPLATE, tags: ['intake', 'smoke'], startUrl: '/intake?ref=abc', paramNames: ['dob', 'name'] },
      params: { dob: { type: 'date', optional: true, inferred: true }, name: { type: 'string' } },
      origin: ORIGIN,
    });
    expect(Object.keys(file.params)).toEqual(['dob', 'name']);
    // Depth first from the root, siblings in recording order (the detour was recorded later, though it succeeded last).
    expect(file.nodes.map((node: { id: string }) => node.id)).toEqual(['n1', 'n2', 'n3', 'n4', 'n5', 'd1']);
    const [n1, n2, n3, n4, n5, d1] = file.nodes;
    expect(Object.keys(n1)).toEqual(['id', 'parentId', 'resumeAtId', 'action', 'intent', 'url', 'fingerprint', 'box', 'cropRect', 'masks', 'state', 'endsRun', 'crop']);
    expect(n1).toMatchObject({ url: '/intake?ref=abc', crop: `evidence/${sha256(cropA)}.png`, masks: [{ x: 9, y: 9, width: 94, height: 18 }] });
    expect(n2).toMatchObject({ parentId: 'n1', masks: [], state: { typeMode: 'replace' }, crop: `evidence/${sha256(cropB)}.png` });
    expect(n3.action).toEqual({ type: 'goto', url: '/next?x=1#part' });
    // Another site stays absolute; the step taken there keeps its URL, its end URL on the origin becomes relative.
    expect(n4.action).toEqual({ type: 'goto', url: 'https://other.test/help' });
    expect(n5).toMatchObject({ url: 'https://other.test/help', state: { endUrl: '/done?id=1' }, endsRun: true });
    expect(d1).toMatchObject({ parentId: null, resumeAtId: 'root', crop: null });
    expect(text).not.toMatch(/hits|misses|lastUsedAt|lastSuccessAt|createdAt|updatedAt|taskId/);
    expect([...filesOf(out).keys()].sort()).toEqual([`evidence/${sha256(cropA)}.png`, `evidence/${sha256(cropB)}.png`, 'recording.json'].sort());
    expect(readFileSync(join(out, 'evidence', `${sha256(cropB)}.png`)).equals(cropB)).toBe(true);
  });

  it('gives the same bytes for the same trajectory however it was stored, and rewrites nothing on re-export', async () => {
    const other = await openStore(':memory:');
    try {
      await fillStore(other, 'shuffled');
      await exportRecording(store, KEY, join(dir, 'a'));
      await exportRecording(other, KEY, join(dir, 'b'));
      expect(filesOf(join(dir, 'b'))).toEqual(filesOf(join(dir, 'a')));
    } finally {
      await other.close();
    }
    const before = statSync(join(dir, 'a', 'recording.json')).mtimeMs;
    await new Promise((resolve) => setTimeout(resolve, 20));
    await exportRecording(store, KEY, join(dir, 'a'));
    expect(statSync(join(dir, 'a', 'recording.json')).mtimeMs).toBe(before);
  });

  it('removes crops no node points at from a folder it updates, and leaves other files alone', async () => {
    const out = join(dir, 'rec');
    await exportRecording(store, KEY, out);
    const stale = join(out, 'evidence', `${'0'.repeat(64)}.png`);
    writeFileSync(stale, PNG);
    writeFileSync(join(out, 'evidence', 'notes.txt'), 'kept');
    await exportRecording(store, KEY, out);
    expect(() => statSync(stale)).toThrow();
    expect(readFileSync(join(out, 'evidence', 'notes.txt'), 'utf8')).toBe('kept');
  });

  it('refuses an unknown task, a folder that is not a recording, and a Rote for a Store', async () => {
    expect((await rejection(exportRecording(store, 'nope', join(dir, 'x')))).message).toBe(
      `exportRecording("nope"): the store at ":memory:" has no task with this key (rote tasks lists them)`,
    );
    mkdirSync(join(dir, 'busy'));
    writeFileSync(join(dir, 'busy', 'README.md'), 'mine');
    const busy = await rejection(exportRecording(store, KEY, join(dir, 'busy')));
    expect(busy.message).toContain('is not empty and holds no recording.json');
    expect(readdirSync(join(dir, 'busy'))).toEqual(['README.md']);
    const rote = { store, run: () => undefined };
    expect((await rejection(exportRecording(rote as never, KEY, join(dir, 'y')))).message).toContain('expected a Store as the first argument (pass rote.store, not the Rote)');
  });
});

describe('importRecording', () => {
  it('round trip: an empty store gets the same trajectory under the same key, and exports the same bytes', async () => {
    await exportRecording(store, KEY, join(dir, 'a'));
    const fresh = await openStore(':memory:');
    try {
      const imported = await importRecording(fresh, join(dir, 'a'));
      expect(imported).toEqual({ taskKey: KEY, template: TEMPLATE, tags: ['intake', 'smoke'], startUrl: `${ORIGIN}/intake?ref=abc`, nodes: 6, added: 6 });
      const original = (await store.subtree(KEY, null, 100)).map(contentOf);
      expect((await fresh.subtree(KEY, null, 100)).map(contentOf)).toEqual(expect.arrayContaining(original));
      expect(await fresh.nodeCount()).toBe(6);
      expect((await fresh.getBlob(sha256(cropA)))!.equals(cropA)).toBe(true);
      // Siblings keep their order: the recording's first step before the detour.
      expect((await fresh.children(KEY, null)).map((row) => row.id)).toEqual(['n1', 'd1']);
      await exportRecording(fresh, KEY, join(dir, 'b'));
      expect(filesOf(join(dir, 'b'))).toEqual(filesOf(join(dir, 'a')));

      // Idempotent: again, nothing is added and nothing fails.
      expect(await importRecording(fresh, join(dir, 'a'))).toMatchObject({ taskKey: KEY, nodes: 6, added: 0 });
      expect(await fresh.nodeCount()).toBe(6);
      expect(await fresh.taskCount()).toBe(1);
    } finally {
      await fresh.close();
    }
  });

  it('puts the URLs on baseURL\'s origin and keys the task as a run there would', async () => {
    await exportRecording(store, KEY, join(dir, 'a'));
    const staging = 'https://staging.example.test:8443';
    const imported = await importRecording(store, join(dir, 'a'), { baseURL: `${staging}/some/path?q=1` });
    expect(imported.taskKey).toBe(identity(staging).key);
    expect(imported.taskKey).not.toBe(KEY);
    expect(imported.startUrl).toBe(`${staging}/intake?ref=abc`);
    const rows = await store.subtree(imported.taskKey, null, 100);
    const byAction = (type: string, url: string) => rows.find((row) => (row.action as { type: string; url?: string }).type === type && (row.action as { url?: string }).url === url);
    expect(byAction('goto', `${staging}/next?x=1#part`)).toBeDefined();
    expect(byAction('goto', 'https://other.test/help')).toBeDefined();
    expect(rows.filter((row) => row.url === `${staging}/intake?ref=abc`)).toHaveLength(4);
    expect(rows.find((row) => row.endsRun)).toMatchObject({ endUrl: `${staging}/done?id=1`, state: {} });
    // The same recording at two origins in one store: the second copy's node ids are derived, links kept.
    expect(await store.nodeCount()).toBe(12);
    expect(rows.map((row) => row.id)).not.toContain('n1');
    const detour = rows.find((row) => row.resumeAtId === 'root')!;
    expect(detour.parentId).toBeNull();
    const path = rows.filter((row) => row.parentId !== null);
    for (const row of path) expect(rows.map((candidate) => candidate.id)).toContain(row.parentId);
    expect(await importRecording(store, join(dir, 'a'), { baseURL: staging })).toMatchObject({ taskKey: imported.taskKey, added: 0 });
    expect(await store.nodeCount()).toBe(12);
    // Exported from there, it is the same recording on another origin.
    await exportRecording(store, imported.taskKey, join(dir, 'b'));
    const first = readFileSync(join(dir, 'a', 'recording.json'), 'utf8');
    const second = readFileSync(join(dir, 'b', 'recording.json'), 'utf8');
    expect(second).toContain(`"origin": "${staging}"`);
    const idsOf = (text: string) => (JSON.parse(text) as { nodes: { id: string }[] }).nodes.map((node) => node.id);
    const renamed = idsOf(first).reduce((text, id, at) => text.replaceAll(`"${idsOf(second)[at]}"`, `"${id}"`), second);
    expect(renamed.replace(`"origin": "${staging}"`, `"origin": "${ORIGIN}"`)).toBe(first);
  });

  it('refuses a baseURL that is not an http(s) URL, before reading anything', async () => {
    const error = await rejection(importRecording(store, join(dir, 'missing'), { baseURL: 'localhost:3000' }));
    expect(error.message).toBe(`importRecording("${join(dir, 'missing')}"): options.baseURL must be an http(s) URL such as "http://localhost:3000", got "localhost:3000"`);
  });
});

describe('readRecording', () => {
  let folder: string;
  const edit = (change: (file: Record<string, any>) => void) => {
    const path = join(folder, 'recording.json');
    const file = JSON.parse(readFileSync(path, 'utf8'));
    change(file);
    writeFileSync(path, JSON.stringify(file, null, 2));
  };
  const problem = async () => (await rejection(readRecording(folder))).message;

  beforeEach(async () => {
    folder = join(dir, 'rec');
    await exportRecording(store, KEY, folder);
  });

  it('reads a recording with its crops', async () => {
    const recording = await readRecording(folder);
    expect(recording.file.task.template).toBe(TEMPLATE);
    expect(recording.file.nodes).toHaveLength(6);
    expect([...recording.crops.keys()].sort()).toEqual([sha256(cropA), sha256(cropB)].sort());
  });

  it('rejects a file from a future version, asking for a newer rote', async () => {
    edit((file) => {
      file.version = 2;
      file.nodes[0].somethingNew = true;
    });
    expect(await problem()).toBe(`readRecording("${folder}"): recording.json has version 2; this rote reads version 1: upgrade rote`);
  });

  it('rejects a file that is not a recording, or of no known version', async () => {
    edit((file) => (file.format = 'something-else'));
    expect(await problem()).toBe(`readRecording("${folder}"): recording.json is not a rote recording: "format" is "something-else", expected "rote-recording"`);
    edit((file) => {
      file.format = 'rote-recording';
      file.version = '1';
    });
    expect(await problem()).toBe(`readRecording("${folder}"): recording.json: "version" is "1", expected 1`);
    writeFileSync(join(folder, 'recording.json'), '{"format": "rote-recording",');
    expect(await problem()).toMatch(/^readRecording\(".*"\): recording\.json is not JSON: /);
  });

  it('names the broken field and what was expected', async () => {
    edit((file) => (file.nodes[1].action.type = 'teleport'));
    expect(await problem()).toMatch(/recording\.json is not valid: nodes\[1\]\.action\.type: Invalid discriminator value\. Expected 'click' \| .*, got "teleport"$/);
    edit((file) => {
      file.nodes[1].action = { type: 'type', text: '{{name}}', delay: 5 };
      delete file.nodes[2].endsRun;
      file.nodes[0].box.width = 'wide';
    });
    const message = await problem();
    expect(message).toContain('recording.json is not valid: 3 problems with its fields:');
    expect(message).toContain('  - nodes[0].box.width: Invalid input: expected number, received string, got "wide"');
    expect(message).toContain('  - nodes[1].action: Unrecognized key: "delay"');
    expect(message).toContain('  - nodes[2].endsRun: Invalid input: expected boolean, received undefined');
  });

  it('rejects links that point nowhere and relative URLs with no origin', async () => {
    edit((file) => {
      file.nodes[1].parentId = 'gone';
      file.nodes[5].resumeAtId = 'nowhere';
    });
    const links = await problem();
    expect(links).toContain('nodes[1].parentId: no node has the id "gone"');
    expect(links).toContain('nodes[5].resumeAtId: no node has the id "nowhere" (nor is it "root")');
    edit((file) => {
      file.nodes[1].parentId = 'n1';
      file.nodes[5].resumeAtId = 'root';
      file.origin = null;
    });
    expect(await problem()).toContain('task.startUrl: "/intake?ref=abc" is relative, but "origin" is null');
  });

  it('rejects a crop whose bytes do not hash to its name, or that is missing', async () => {
    const path = join(folder, 'evidence', `${sha256(cropB)}.png`);
    writeFileSync(path, Buffer.concat([PNG, Buffer.from('tampered')]));
    expect(await problem()).toBe(
      `readRecording("${folder}"): nodes[1].crop: evidence/${sha256(cropB)}.png does not hold the image its name promises (its bytes hash to ${sha256(Buffer.concat([PNG, Buffer.from('tampered')]))})`,
    );
    rmSync(path);
    expect(await problem()).toBe(`readRecording("${folder}"): nodes[1].crop: evidence/${sha256(cropB)}.png is missing from the folder`);
  });

  it('rejects a folder with no recording.json', async () => {
    expect((await rejection(readRecording(dir))).message).toBe(`readRecording("${dir}"): no recording.json in "${dir}" (expected a folder written by exportRecording or \`rote export\`)`);
  });

  it('writes nothing to the store when a recording is rejected', async () => {
    edit((file) => (file.nodes[4].state.endUrl = 42));
    const fresh = await openStore(':memory:');
    try {
      const error = await rejection(importRecording(fresh, folder));
      expect(error.code).toBe('invalid-argument');
      expect(error.message).toContain('nodes[4].state.endUrl: Invalid input: expected string, received number, got 42');
      expect(await fresh.taskCount()).toBe(0);
      expect(await fresh.nodeCount()).toBe(0);
    } finally {
      await fresh.close();
    }
  });
});

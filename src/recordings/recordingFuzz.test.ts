import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../bench/apps/catalog/random.js';
import { RoteError } from '../errors/roteError.js';
import { openStore } from '../store/store.js';
import { exportRecording } from './exportRecording.js';
import { importRecording } from './importRecording.js';

/**
 * A recording folder edited by hand into nonsense, many ways, from a seed: an import either takes
 * it (an edit that still makes sense) or refuses it with a RoteError that names the file and what
 * is wrong, and then has written nothing. Never another kind of error, never half a trajectory.
 */

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const crop = Buffer.concat([PNG, Buffer.from('crop')]);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const KEY = 'fuzz-task';
const ORIGIN = 'http://127.0.0.1:4011';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every place in a JSON tree, as the path to it. */
function pathsOf(value: Json, at: (string | number)[] = []): (string | number)[][] {
  const here = at.length > 0 ? [at] : [];
  if (Array.isArray(value)) return [...here, ...value.flatMap((item, index) => pathsOf(item, [...at, index]))];
  if (value !== null && typeof value === 'object') return [...here, ...Object.entries(value).flatMap(([key, item]) => pathsOf(item, [...at, key]))];
  return here;
}

const NONSENSE: Json[] = [null, 0, -1, 1e308, '', 'nonsense', '{{', '{{nope}}', 'javascript:alert(1)', true, [], {}, [1, 'x'], { type: 'teleport' }];

/** One hand edit gone wrong: a field removed, given another type or value, a node doubled or moved. */
function mutate(file: Json, random: () => number): Json {
  const copy = structuredClone(file) as { [key: string]: Json };
  const paths = pathsOf(copy);
  const path = paths[Math.floor(random() * paths.length)]!;
  const parent = path.slice(0, -1).reduce<Json>((node, key) => (node as Record<string, Json>)[key as string]!, copy) as Record<string, Json> | Json[];
  const key = path.at(-1)!;
  const choice = random();
  if (choice < 0.3) {
    if (Array.isArray(parent)) parent.splice(Number(key), 1);
    else delete parent[key as string];
  } else if (choice < 0.8) {
    (parent as Record<string, Json>)[key as string] = NONSENSE[Math.floor(random() * NONSENSE.length)]!;
  } else {
    const nodes = copy.nodes as { [key: string]: Json }[];
    const [a, b] = [nodes[Math.floor(random() * nodes.length)]!, nodes[Math.floor(random() * nodes.length)]!];
    if (random() < 0.5) nodes.push(structuredClone(a));
    else [a.parentId, b.parentId] = [b.parentId!, a.parentId!];
  }
  return copy;
}

let dir: string;
let original: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rote-fuzz-'));
  const store = await openStore(':memory:');
  const base = { taskId: KEY, intent: null, box: null, cropRect: null, cropHash: null, masks: null, state: null };
  await store.importTrajectories([
    {
      task: { id: KEY, taskTemplate: 'Register {{name}}', tags: [], startUrl: `${ORIGIN}/intake`, paramNames: ['name'], paramSchema: null, createdAt: 1, updatedAt: 1 },
      nodes: [
        { ...base, id: 'n1', parentId: null, action: { type: 'click', x: 60, y: 32, button: 'left' }, intent: 'Fill "Name"', url: `${ORIGIN}/intake`, fingerprint: { role: 'textbox', name: 'Name', tag: 'input', inputType: 'text' }, box: { x: 10, y: 20, width: 100, height: 24 }, cropRect: { x: -6, y: -6, width: 112, height: 36 }, cropHash: sha256(crop), masks: [{ x: 9, y: 9, width: 94, height: 18 }], state: { matches: 1, ahead: ['name'] }, createdAt: 100 },
        { ...base, id: 'n2', parentId: 'n1', action: { type: 'type', text: '{{name}}' }, url: `${ORIGIN}/intake`, fingerprint: null, state: { typeMode: 'replace' }, createdAt: 101 },
        { ...base, id: 'n3', parentId: 'n2', action: { type: 'click', x: 5, y: 5, button: 'left' }, url: `${ORIGIN}/intake`, fingerprint: { role: 'button', name: 'Save', tag: 'button', inputType: null }, state: { endUrl: `${ORIGIN}/done` }, endsRun: true, createdAt: 102 },
        { ...base, id: 'd1', parentId: null, resumeAtId: 'root', action: { type: 'click', x: 300, y: 200, button: 'left' }, url: `${ORIGIN}/intake`, fingerprint: null, createdAt: 200 },
      ],
      blobs: [{ hash: sha256(crop), bytes: crop }],
    },
  ]);
  await exportRecording(store, KEY, join(dir, 'folder'));
  await store.close();
  original = readFileSync(join(dir, 'folder', 'recording.json'), 'utf8');
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a recording folder edited into nonsense', () => {
  it('is taken whole or refused with a RoteError naming what is wrong, and a refusal writes nothing (300 edits, seeded)', { timeout: 60_000 }, async () => {
    const random = mulberry32(20261124);
    const file = JSON.parse(original) as Json;
    let refused = 0;
    let accepted = 0;
    for (let round = 0; round < 300; round++) {
      const edited = round % 10 === 9 ? original.slice(0, Math.floor(random() * original.length)) : JSON.stringify(mutate(file, random), null, 2);
      writeFileSync(join(dir, 'folder', 'recording.json'), edited);
      const store = await openStore(':memory:');
      try {
        const outcome = await importRecording(store, join(dir, 'folder')).then(
          () => undefined,
          (error: unknown) => error,
        );
        if (outcome === undefined) {
          accepted++;
          // What was taken reads back whole: it exports again (a tree, no loop), or the export refuses it by name.
          const again = await exportRecording(store, KEY, join(dir, `again-${round}`)).then(
            () => undefined,
            (error: unknown) => error,
          );
          if (again !== undefined) expect(RoteError.isInstance(again), `round ${round}: the export of an accepted edit: ${String(again)}`).toBe(true);
          continue;
        }
        refused++;
        expect(RoteError.isInstance(outcome), `round ${round}: ${String(outcome)}\n${edited.slice(0, 400)}`).toBe(true);
        expect((outcome as RoteError).message, `round ${round}`).toMatch(/importRecording\(".*"\): .*(recording\.json|nodes|task|params|format|version|origin|evidence)/s);
        expect(await store.nodeCount(), `round ${round}: a refused import wrote nodes`).toBe(0);
        expect(await store.taskCount()).toBe(0);
      } finally {
        await store.close();
      }
    }
    // Most edits of this kind make no sense: the test saw refusals, not only edits that still held.
    expect(refused).toBeGreaterThan(200);
    expect(accepted).toBeGreaterThan(0);
  });
});

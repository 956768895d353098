/**
 * The store conformance suite: every behaviour of the Store interface, on both dialects (SQLite
 * and a real PostgreSQL server this file starts). What only one dialect has (SQLite's pragmas and
 * file checks, PostgreSQL's URL errors) is tested beside its own implementation.
 */
import { createHash } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { RoteError } from '../errors/roteError.js';
import type { NodeRow } from './rows.js';
import { finished, node, task } from '../../e2e/support/storeTestRows.js';
import { openStore, type Store } from './store.js';
import { DIALECTS } from '../../e2e/support/storeHarness.js';
import { freshStoreEachTest } from '../../e2e/support/storeSuite.js';


const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
/** The engine's rule, reduced for these rows: same action and URL. */
const sameAction = (stored: NodeRow, fresh: NodeRow) => JSON.stringify(stored.action) === JSON.stringify(fresh.action) && stored.url === fresh.url;

describe.each(DIALECTS)('Store on %s', (dialect) => {
  const fresh = freshStoreEachTest(dialect);
  if (!fresh) return;
  const begin = fresh.begin.bind(fresh);
  let store: Store;
  let location: string;
  beforeEach(() => {
    ({ store, location } = fresh);
  });

  describe('open', () => {
    it('creates the schema and keeps data across opens (migrations already applied are a no-op)', async () => {
      expect(store.dialect).toBe(dialect);
      expect(await store.taskCount()).toBe(0);
      const runId = await begin();
      await store.commitRun({ task: task(), run: finished(runId) });
      const again = await openStore(location);
      try {
        expect((await again.getTask('task-1'))?.taskTemplate).toBe('search for {{query}}');
        expect(await again.listRuns(1)).toMatchObject([{ id: runId, status: 'agent' }]);
      } finally {
        await again.close();
      }
    });

    it('refuses a store a newer rote upgraded, saying so, instead of missing what its schema moved', async () => {
      const later = Date.UTC(2100, 0, 1);
      await fresh.harness.raw(store, 'INSERT INTO __drizzle_migrations (hash, created_at) VALUES (?, ?)', ['from-a-newer-rote', later]);
      const refused = await captureError(() => openStore(location));
      expect(refused).toMatchObject({ code: 'store', message: expect.stringContaining('was upgraded by a newer rote (its schema is of 2100-01-01T00:00:00.000Z') });
      expect((refused as Error).message).toContain('upgrade rote on this machine');
    });
  });

  describe('commitRun', () => {
    it('writes task, nodes, blobs, stats, links, run and steps', async () => {
      const crop = Buffer.from('png bytes');
      const runId = await begin();
      const first = node({ intent: 'open search', cropHash: sha256(crop), box: { x: 1, y: 2, w: 3, h: 4 } });
      const second = node({ parentId: first.id, endsRun: true });
      await store.commitRun({
        task: task(),
        newNodes: [first, second],
        blobs: [{ hash: sha256(crop), bytes: crop }],
        run: finished(runId),
        steps: [
          { runId, idx: 0, nodeId: first.id, kind: 'agent', action: first.action, intent: 'open search', outcome: 'ok', reason: null, durationMs: 5, checkMs: 1 },
          { runId, idx: 1, nodeId: second.id, kind: 'agent', action: second.action, intent: null, outcome: 'ok', reason: null, durationMs: 6, checkMs: 2 },
        ],
      });

      expect(await store.taskCount()).toBe(1);
      expect(await store.getTask('task-1')).toEqual(task());
      expect(await store.getNode(first.id)).toMatchObject({ parentId: null, box: { x: 1, y: 2, w: 3, h: 4 }, fingerprint: null, endsRun: false, hits: 0, misses: 0, createdAt: 1000 });
      expect(await store.getNode(second.id)).toMatchObject({ parentId: first.id, endsRun: true });
      expect(await store.getBlob(sha256(crop))).toEqual(crop);
      expect((await store.listRuns(10))[0]).toMatchObject({ id: runId, status: 'agent', agentSteps: 2, endedAt: 2000, modelCalls: 3, inputTokens: 1200, outputTokens: 80 });
      expect((await store.runSteps(runId)).map((s) => [s.idx, s.nodeId])).toEqual([
        [0, first.id],
        [1, second.id],
      ]);

      // Nulls stay SQL NULL (not the JSON text 'null'), so SQL can filter on them.
      const [raw] = await fresh.harness.raw(store, 'SELECT fingerprint FROM nodes WHERE id = ?', [first.id]);
      expect(raw).toEqual({ fingerprint: null });

      // A later run: stats and links on existing nodes, and a task upsert merging paramNames.
      const later = await begin();
      await store.commitRun({
        task: task({ paramNames: ['city', 'query'], createdAt: 5000, updatedAt: 5000 }),
        nodeStats: [
          { id: first.id, hit: true, usedAt: 3000, succeeded: true },
          { id: second.id, hit: false, usedAt: 3001, succeeded: false },
        ],
        nodeLinks: [{ id: second.id, resumeAtId: first.id, endsRun: false }],
        run: finished(later, { status: 'mixed' }),
      });
      expect(await store.getTask('task-1')).toMatchObject({ paramNames: ['query', 'city'], createdAt: 1000, updatedAt: 5000 });
      expect(await store.getNode(first.id)).toMatchObject({ hits: 1, misses: 0, lastUsedAt: 3000, lastSuccessAt: 3000 });
      expect(await store.getNode(second.id)).toMatchObject({ hits: 0, misses: 1, lastUsedAt: 3001, lastSuccessAt: null, resumeAtId: first.id, endsRun: false });
    });

    it('a stored node a later run ended on keeps its end URL in its own column, its state as it was', async () => {
      const stored = node({ state: { typeMode: 'keys', matches: 1 } });
      const bare = node({ parentId: stored.id });
      await store.commitRun({ task: task(), newNodes: [stored, bare], run: finished(await begin()) });
      await store.commitRun({
        nodeLinks: [
          { id: stored.id, endsRun: true, endUrl: 'https://example.test/saved?id=:id' },
          { id: bare.id, endsRun: true, endUrl: 'https://example.test/done' },
        ],
        run: finished(await begin()),
      });
      expect(await store.getNode(stored.id)).toMatchObject({ endsRun: true, endUrl: 'https://example.test/saved?id=:id', state: { typeMode: 'keys', matches: 1 } });
      expect((await store.getNode(stored.id))?.state).not.toHaveProperty('endUrl');
      expect(await store.getNode(bare.id)).toMatchObject({ endsRun: true, endUrl: 'https://example.test/done' });
    });

    it('is atomic: a failing insert leaves nothing behind and the run stays running', async () => {
      const runId = await begin();
      const crop = Buffer.from('crop');
      const error = await captureError(() =>
        store.commitRun({
          task: task(),
          blobs: [{ hash: sha256(crop), bytes: crop }],
          // The second node references a task that does not exist: a foreign key violation.
          newNodes: [node(), node({ taskId: 'no-such-task' })],
          run: finished(runId),
          steps: [{ runId, idx: 0, nodeId: null, kind: 'agent', action: {}, intent: null, outcome: 'ok', reason: null, durationMs: 1, checkMs: 0 }],
        }),
      );
      expect(RoteError.isInstance(error) && error.code).toBe('store');
      expect((error as Error).message).toMatch(/could not commit run run-\d+: .*(FOREIGN KEY|foreign key)/);
      expect((error as Error).cause).toBeInstanceOf(Error);

      expect(await store.taskCount()).toBe(0);
      expect(await store.getBlob(sha256(crop))).toBeUndefined();
      expect(await store.nodeCount()).toBe(0);
      expect(await store.runSteps(runId)).toEqual([]);
      expect((await store.listRuns(1))[0]).toMatchObject({ id: runId, status: 'running', endedAt: null });
    });

    it('rejects a blob whose hash does not match its bytes', async () => {
      const runId = await begin();
      await expect(store.commitRun({ blobs: [{ hash: 'ab'.repeat(32), bytes: Buffer.from('x') }], run: finished(runId) })).rejects.toThrowError(/does not match its bytes/);
    });

    it('stores a blob once however often it is committed', async () => {
      const bytes = Buffer.from('same crop');
      const hash = sha256(bytes);
      await store.commitRun({ task: task(), blobs: [{ hash, bytes }], run: finished(await begin()) });
      await store.commitRun({ blobs: [{ hash, bytes }, { hash, bytes }], run: finished(await begin()) });
      const [counted] = await fresh.harness.raw(store, 'SELECT count(*) AS n, sum(size) AS size FROM blobs');
      expect(Number(counted!.n)).toBe(1);
      expect(Number(counted!.size)).toBe(bytes.length);
      expect(await store.getBlob(hash)).toEqual(bytes);
      expect(await store.getBlob('missing')).toBeUndefined();
    });

    it('requires a begun run', async () => {
      await expect(store.commitRun({ run: finished('never-begun') })).rejects.toThrowError(/was never begun/);
    });

    it('folds a new branch into the equal one another run stored meanwhile, and keeps what differs', async () => {
      const root = node({ action: { type: 'goto', url: '/' }, createdAt: 1 });
      await store.commitRun({ task: task(), newNodes: [root], run: finished(await begin()) });
      // Two runs met the same new page after the root and learned the same two steps, with their own ids.
      const learned = () => {
        const fill = node({ parentId: root.id, action: { type: 'type', text: '{{query}}' }, createdAt: 2 });
        const submit = node({ parentId: fill.id, action: { type: 'click', target: 'Search' }, createdAt: 3, resumeAtId: fill.id });
        return [fill, submit] as const;
      };
      const [fillA, submitA] = learned();
      const [fillB, learnedSubmit] = learned();
      // The second run ended on the submit: the engine keeps that in the new node itself.
      const submitB = { ...learnedSubmit, endsRun: true, endUrl: 'https://example.test/done', lastUsedAt: 5000, lastSuccessAt: 5000 };
      const extra = node({ parentId: fillB.id, action: { type: 'click', target: 'Advanced' }, createdAt: 4 });
      const runA = await begin();
      await store.commitRun({ sameStep: sameAction, task: task(), newNodes: [fillA, submitA], run: finished(runA), steps: [{ runId: runA, idx: 0, nodeId: fillA.id, kind: 'agent', action: {}, intent: null, outcome: 'ok', reason: null, durationMs: 1, checkMs: 0 }] });
      const runB = await begin();
      await store.commitRun({
        sameStep: sameAction,
        task: task(),
        newNodes: [fillB, submitB, extra],
        run: finished(runB),
        steps: [
          { runId: runB, idx: 0, nodeId: fillB.id, kind: 'agent', action: {}, intent: null, outcome: 'ok', reason: null, durationMs: 1, checkMs: 0 },
          { runId: runB, idx: 1, nodeId: extra.id, kind: 'agent', action: {}, intent: null, outcome: 'ok', reason: null, durationMs: 1, checkMs: 0 },
        ],
      });
      expect((await store.children('task-1', root.id)).map((n) => n.id)).toEqual([fillA.id]);
      expect((await store.children('task-1', fillA.id)).map((n) => n.id).sort()).toEqual([submitA.id, extra.id].sort());
      expect(await store.getNode(fillB.id)).toBeUndefined();
      expect(await store.getNode(extra.id)).toMatchObject({ parentId: fillA.id });
      // What the second run learned about the folded submit is the stored one's now: where runs end, a use.
      expect(await store.getNode(submitA.id)).toMatchObject({ endsRun: true, resumeAtId: fillA.id, endUrl: 'https://example.test/done', hits: 1, lastSuccessAt: 5000 });
      expect((await store.runSteps(runB)).map((step) => step.nodeId)).toEqual([fillA.id, extra.id]);
      expect(await store.nodeCount()).toBe(4);
    });

    it("a link adds what a run learned to a stored step's state, each item once, in the order learned, and sets its end URL", async () => {
      const stored = node({ createdAt: 1, state: { ahead: [], valueHashes: { n: 'h1' } } });
      await store.commitRun({ task: task(), newNodes: [stored], run: finished(await begin()) });
      const two = { ahead: [], valueHashes: { n: 'h2' } };
      const three = { ahead: [], valueHashes: { n: 'h3' } };
      await store.commitRun({ run: finished(await begin()), nodeLinks: [{ id: stored.id, endsRun: true, endUrl: 'https://example.test/done', state: { add: { alsoUnder: [two], endsUnder: [two] } } }] });
      await store.commitRun({ run: finished(await begin()), nodeLinks: [{ id: stored.id, state: { add: { alsoUnder: [two, three], setsValue: [] } } }] });
      const after = await store.getNode(stored.id);
      expect(after).toMatchObject({ endsRun: true, endUrl: 'https://example.test/done' });
      expect(after?.state).toEqual({ ahead: [], valueHashes: { n: 'h1' }, alsoUnder: [two, three], endsUnder: [two] });
      // The text keeps its key order (a key set in place, a new one last): exports stay byte-identical.
      expect(Object.keys(after!.state as object)).toEqual(['ahead', 'valueHashes', 'alsoUnder', 'endsUnder']);
      await expect(store.commitRun({ run: finished(await begin()), nodeLinks: [{ id: 'missing', state: { add: { alsoUnder: [two] } } }] })).rejects.toThrowError(/does not exist/);
    });

    it('a folded step gives the stored one the values it was learned under, where it ended and what it set', async () => {
      const root = node({ action: { type: 'goto', url: '/' }, createdAt: 1 });
      const press = (over: Partial<NodeRow> = {}) => node({ parentId: root.id, action: { type: 'click', target: 'Ring' }, createdAt: 2, ...over });
      const first = press({ state: { ahead: [], valueHashes: { times: 'two' } } });
      await store.commitRun({ sameStep: sameAction, task: task(), newNodes: [root, first], run: finished(await begin()) });
      const again = press({ endsRun: true, state: { ahead: [], valueHashes: { times: 'one' }, endsUnder: [{ ahead: [], valueHashes: { times: 'one' } }], setsValue: [{ param: 'times', hash: 'one' }] } });
      await store.commitRun({ sameStep: sameAction, task: task(), newNodes: [again], run: finished(await begin()) });
      expect(await store.getNode(again.id)).toBeUndefined();
      expect((await store.getNode(first.id))?.state).toEqual({
        ahead: [],
        valueHashes: { times: 'two' },
        alsoUnder: [{ ahead: [], valueHashes: { times: 'one' } }],
        endsUnder: [{ ahead: [], valueHashes: { times: 'one' } }],
        setsValue: [{ param: 'times', hash: 'one' }],
      });
    });

    it('two processes learning the same branch at the same moment store it once, whole', async () => {
      const root = node({ action: { type: 'goto', url: '/' }, createdAt: 1 });
      await store.commitRun({ task: task(), newNodes: [root], run: finished(await begin()) });
      const others = await Promise.all([openStore(location), openStore(location), openStore(location), openStore(location)]);
      try {
        const commits = others.map(async (other) => {
          const fill = node({ parentId: root.id, action: { type: 'type', text: '{{query}}' }, createdAt: 2 });
          const submit = node({ parentId: fill.id, action: { type: 'click', target: 'Search' }, createdAt: 3 });
          const runId = await begin(process.pid, other);
          await other.commitRun({ sameStep: sameAction, task: task(), newNodes: [fill, submit], run: finished(runId) });
        });
        await Promise.all(commits);
      } finally {
        await Promise.all(others.map((other) => other.close()));
      }
      const fills = await store.children('task-1', root.id);
      expect(fills).toHaveLength(1);
      expect((await store.children('task-1', fills[0]!.id)).map((n) => n.action)).toEqual([{ type: 'click', target: 'Search' }]);
      expect(await store.nodeCount()).toBe(3);
      expect((await store.listRuns(10)).filter((run) => run.status === 'running')).toEqual([]);
    });
  });

});

async function captureError(fn: () => Promise<unknown>): Promise<unknown> {
  try {
    await fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

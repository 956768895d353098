/**
 * The store conformance suite, its reads: children's order, damaged columns, runs listed and found,
 * on both dialects (the writes are in store.test.ts).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { RoteError } from '../errors/roteError.js';
import { UnreadableColumn } from './rows.js';
import { finished, node, task } from '../../e2e/support/storeTestRows.js';
import type { Store } from './store.js';
import { DIALECTS } from '../../e2e/support/storeHarness.js';
import { freshStoreEachTest } from '../../e2e/support/storeSuite.js';

describe.each(DIALECTS)('Store reads on %s', (dialect) => {
  const fresh = freshStoreEachTest(dialect);
  if (!fresh) return;
  const begin = fresh.begin.bind(fresh);
  let store: Store;
  beforeEach(() => {
    ({ store } = fresh);
  });

  it('orders children by last success (nulls last), then creation', async () => {
    const a = node({ createdAt: 1 });
    const b = node({ createdAt: 2 });
    const c = node({ createdAt: 3 });
    const d = node({ createdAt: 4 });
    const other = node({ parentId: a.id, createdAt: 0 });
    await store.commitRun({
      task: task(),
      newNodes: [a, b, c, d, other],
      nodeStats: [
        { id: c.id, hit: true, usedAt: 100, succeeded: true },
        { id: d.id, hit: true, usedAt: 200, succeeded: true },
        { id: b.id, hit: true, usedAt: 300, succeeded: false }, // used, but never succeeded
      ],
      run: finished(await begin()),
    });
    expect((await store.children('task-1', null)).map((n) => n.id)).toEqual([d.id, c.id, a.id, b.id]);
    expect((await store.children('task-1', a.id)).map((n) => n.id)).toEqual([other.id]);
    expect(await store.children('other-task', null)).toEqual([]);
  });

  it('reads a node whose JSON column is damaged as an UnreadableColumn, instead of failing the whole read', async () => {
    const good = node({ createdAt: 1 });
    const damaged = node({ createdAt: 2 });
    await store.commitRun({ task: task(), newNodes: [good, damaged], run: finished(await begin()) });
    await fresh.harness.raw(store, 'UPDATE nodes SET action = ? WHERE id = ?', ['{"type": "cli', damaged.id]);
    const children = await store.children('task-1', null);
    expect(children.map((n) => n.id)).toEqual([good.id, damaged.id]);
    expect(children[0]!.action).toEqual({ type: 'click', target: 'button' });
    expect(children[1]!.action).toBeInstanceOf(UnreadableColumn);
    expect(children[1]!.action).toMatchObject({ column: 'action' });
    expect((await store.getNode(damaged.id))!.action).toBeInstanceOf(UnreadableColumn);
    expect((await store.subtree('task-1', null, 10)).map((n) => n.id)).toEqual([good.id, damaged.id]);
  });

  it('walks a subtree breadth-first up to a limit', async () => {
    const root = node({ createdAt: 1 });
    const left = node({ parentId: root.id, createdAt: 2 });
    const right = node({ parentId: root.id, createdAt: 3 });
    const leftChild = node({ parentId: left.id, createdAt: 4, state: { page: 'results' } });
    const deeper = node({ parentId: leftChild.id, createdAt: 5 });
    await store.commitRun({ task: task(), newNodes: [deeper, leftChild, right, left, root], run: finished(await begin()) });

    expect((await store.subtree('task-1', root.id, 10)).map((n) => n.id)).toEqual([left.id, right.id, leftChild.id, deeper.id]);
    expect((await store.subtree('task-1', root.id, 2)).map((n) => n.id)).toEqual([left.id, right.id]);
    expect((await store.subtree('task-1', null, 2)).map((n) => n.id)).toEqual([root.id, left.id]);
    // Rows come back mapped like drizzle's: parsed JSON, booleans, numbers.
    expect((await store.subtree('task-1', left.id, 1))[0]).toEqual(await store.getNode(leftChild.id));
    expect((await store.subtree('task-1', left.id, 1))[0]).toMatchObject({ state: { page: 'results' }, endsRun: false, createdAt: 4 });
  });

  it('lists tasks by template with their node counts', async () => {
    await store.commitRun({ task: task(), newNodes: [node(), node()], run: finished(await begin()) });
    await store.importTrajectories([{ task: task({ id: 'task-0', taskTemplate: 'add {{item}}' }), nodes: [] }]);
    expect((await store.listTasks()).map((t) => [t.id, t.taskTemplate, t.nodes])).toEqual([
      ['task-0', 'add {{item}}', 0],
      ['task-1', 'search for {{query}}', 2],
    ]);
    expect((await store.listTasks())[1]).toMatchObject({ tags: ['demo'], paramNames: ['query'] });
  });

  it('imports a trajectory twice without duplicating it: the edits in the file apply, what runs learned stays', async () => {
    const first = node({ createdAt: 1 });
    const second = node({ parentId: first.id, createdAt: 2 });
    await store.importTrajectories([{ task: task(), nodes: [first, second] }]);
    await store.commitRun({ task: task(), nodeStats: [{ id: first.id, hit: true, usedAt: 50, succeeded: true }], nodeLinks: [{ id: second.id, endsRun: true }], run: finished(await begin()) });
    await store.importTrajectories([{ task: task(), nodes: [first, { ...second, intent: 'changed' }, node({ parentId: second.id, createdAt: 3 })] }]);
    expect(await store.nodeCount()).toBe(3);
    expect(await store.getNode(first.id)).toMatchObject({ hits: 1, lastSuccessAt: 50 });
    expect(await store.getNode(second.id)).toMatchObject({ endsRun: true, intent: 'changed' });
    // A run's commit still refuses a node id that exists: there it is a bug. So does an import under another task.
    await expect(store.commitRun({ newNodes: [first], run: finished(await begin()) })).rejects.toThrowError(RoteError);
    await expect(store.importTrajectories([{ task: task({ id: 'task-2' }), nodes: [{ ...first, taskId: 'task-2' }] }])).rejects.toThrowError(/already stored under task task-1, not task-2/);
    expect(await store.getTask('task-2')).toBeUndefined();
  });

  it('lists and finds runs newest first, by id prefix, time and task', async () => {
    const first = await begin();
    const second = await begin();
    expect((await store.listRuns(10)).map((r) => r.id)).toEqual([second, first]);
    expect(await store.listRuns(1)).toHaveLength(1);
    expect((await store.findRuns({ ids: [first] })).map((r) => r.id)).toEqual([first]);
    expect((await store.findRuns({ since: 1000 + fresh.runsBegun })).map((r) => r.id)).toEqual([second]);
    expect(await store.findRuns({ taskIds: ['no-such-task'] })).toEqual([]);
    expect(await store.runIdsStartingWith(first, 5)).toEqual([first]);
    expect((await store.stepsOfRuns([first, second])).length).toBe(0);
  });
});

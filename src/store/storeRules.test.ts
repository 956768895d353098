import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkBlob, checkImportClash, leftByDeadProcess, mergedTask } from './storeRules.js';
import type { TaskRow } from './rows.js';

describe('the rules both stores keep', () => {
  const alive = (pid: number) => pid === 10;

  it("closes a dead process's run of this host; one with no host on a SQLite store (from before hosts were kept), never on PostgreSQL", () => {
    const rows = [
      { id: 'here-dead', host: 'here', pid: 11 },
      { id: 'here-alive', host: 'here', pid: 10 },
      { id: 'no-host-dead', host: null, pid: 12 },
      { id: 'no-host-alive', host: null, pid: 10 },
      { id: 'elsewhere-dead', host: 'there', pid: 13 },
      { id: 'slot-without-pid', host: 'here', pid: null },
    ];
    expect(leftByDeadProcess(rows, 'this-machine', 'here', alive).map((row) => row.id)).toEqual(['here-dead', 'no-host-dead', 'slot-without-pid']);
    expect(leftByDeadProcess(rows, 'unknown', 'here', alive).map((row) => row.id)).toEqual(['here-dead', 'slot-without-pid']);
  });

  it('merges a task into the stored one: first creation time, every name ever seen, types kept unless given anew', () => {
    const stored: TaskRow = { id: 't', taskTemplate: 'x', tags: [], startUrl: 'u', paramNames: ['a', 'b'], paramSchema: { a: { type: 'string' }, b: { type: 'date' } }, createdAt: 1, updatedAt: 5 };
    const fresh: TaskRow = { ...stored, paramNames: ['b', 'c'], paramSchema: { b: { type: 'string' } }, createdAt: 9, updatedAt: 3 };
    expect(mergedTask(fresh, stored)).toMatchObject({ createdAt: 1, paramNames: ['a', 'b', 'c'], paramSchema: { a: { type: 'string' }, b: { type: 'string' } }, updatedAt: 5 });
    expect(mergedTask(fresh, undefined)).toMatchObject({ createdAt: 9, paramNames: ['b', 'c'], updatedAt: 3 });
  });

  it('refuses a blob whose bytes are not its hash, and a node id stored under another task', () => {
    const bytes = Buffer.from('crop');
    const hash = createHash('sha256').update(bytes).digest('hex');
    expect(() => checkBlob({ hash, bytes })).not.toThrow();
    expect(() => checkBlob({ hash: hash.replace(/^./, '0'), bytes: Buffer.from('other') })).toThrow(/does not match its bytes/);
    expect(() => checkImportClash({ id: 'n1', taskId: 't1' }, { taskId: 't2' })).toThrow('node n1 is already stored under task t2, not t1');
    expect(() => checkImportClash({ id: 'n1', taskId: 't1' }, { taskId: 't1' })).not.toThrow();
    expect(() => checkImportClash({ id: 'n1', taskId: 't1' }, undefined)).not.toThrow();
  });
});

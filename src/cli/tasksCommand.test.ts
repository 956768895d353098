import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TaskRow } from '../store/rows.js';
import { openStore } from '../store/store.js';
import { tasksCommand } from './tasksCommand.js';

const task = (over: Partial<TaskRow>): TaskRow => ({ id: 'k1', taskTemplate: 'Fill in the form', tags: [], startUrl: 'http://a.test/form', paramNames: [], paramSchema: null, createdAt: 1, updatedAt: 1, ...over });

describe('rote tasks', () => {
  const dirs: string[] = [];
  afterEach(() => {
    vi.restoreAllMocks();
    dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true }));
  });

  async function storeWith(tasks: TaskRow[]): Promise<string> {
    const dir = mkdtempSync(join(tmpdir(), 'rote-tasks-'));
    dirs.push(dir);
    const path = join(dir, 'rote.db');
    const store = await openStore(path);
    await store.importTrajectories(tasks.map((row) => ({ task: row, nodes: [] })));
    await store.close();
    return path;
  }

  async function output(run: () => Promise<number>): Promise<string> {
    let text = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      text += String(chunk);
      return true;
    });
    expect(await run()).toBe(0);
    vi.restoreAllMocks();
    return text;
  }

  it('names a template that is cached under several keys, with what sets them apart', async () => {
    const path = await storeWith([task({ id: 'k1' }), task({ id: 'k2', startUrl: 'http://a.test/form?lang=de' }), task({ id: 'k3', taskTemplate: 'Other task' })]);
    const text = await output(() => tasksCommand({ store: path }));
    expect(text).toContain('One template is cached under several keys');
    expect(text).toMatch(/"Fill in the form"\n {4}k1 {2}start http:\/\/a\.test\/form\n {4}k2 {2}start http:\/\/a\.test\/form\?lang=de/);
    expect(text).not.toMatch(/k3 {2}start/);
    const rows = JSON.parse(await output(() => tasksCommand({ store: path, json: true }))) as { key: string; otherKeys: string[] }[];
    expect(rows.map((row) => [row.key, row.otherKeys])).toEqual([['k1', ['k2']], ['k2', ['k1']], ['k3', []]]);
  });

  it('says nothing more when every template has one key', async () => {
    const path = await storeWith([task({ id: 'k1' }), task({ id: 'k3', taskTemplate: 'Other task' })]);
    expect(await output(() => tasksCommand({ store: path }))).not.toContain('several keys');
  });
});

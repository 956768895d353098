/** Rows the store tests build on: one task, a node of it, a run's result. */
import { randomUUID } from 'node:crypto';
import type { NewNodeRow, FinishedRun, TaskRow } from '../../src/store/rows.js';

export const task = (over: Partial<TaskRow> = {}): TaskRow => ({
  id: 'task-1',
  taskTemplate: 'search for {{query}}',
  tags: ['demo'],
  startUrl: 'https://example.test/',
  paramNames: ['query'],
  paramSchema: null,
  createdAt: 1000,
  updatedAt: 1000,
  ...over,
});

export const node = (over: Partial<NewNodeRow> = {}): NewNodeRow => ({
  id: randomUUID(),
  taskId: 'task-1',
  action: { type: 'click', target: 'button' },
  url: 'https://example.test/',
  createdAt: 1000,
  ...over,
});

export const finished = (id: string, over: Partial<FinishedRun> = {}): FinishedRun => ({
  id,
  taskId: 'task-1',
  status: 'agent',
  endedAt: 2000,
  durationMs: 1000,
  agentCalls: 2,
  cachedSteps: 0,
  relocatedSteps: 0,
  agentSteps: 2,
  modelCalls: 3,
  inputTokens: 1200,
  outputTokens: 80,
  error: null,
  ...over,
});

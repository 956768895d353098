import { RoteError } from '../errors/roteError.js';
import type { TaskSummary } from './rows.js';

/**
 * The task a command names: its key, a prefix of the key that only one task has, or its exact
 * template (when only one task has it: tags and start URLs make different tasks of one text).
 */
export function findTask(tasks: readonly TaskSummary[], reference: string, where: string): TaskSummary {
  const byKey = tasks.find((task) => task.id === reference);
  if (byKey) return byKey;
  const byTemplate = tasks.filter((task) => task.taskTemplate === reference);
  const matches = byTemplate.length > 0 ? byTemplate : /^[0-9a-f]+$/.test(reference) ? tasks.filter((task) => task.id.startsWith(reference)) : [];
  if (matches.length === 1) return matches[0]!;
  if (matches.length > 1) {
    const what = byTemplate.length > 0 ? 'tasks have this template' : 'task keys start with it';
    throw new RoteError(
      'invalid-argument',
      `${where}: ${matches.length} ${what}; give one key:\n${matches.map((task) => `  ${task.id}  tags [${task.tags.join(', ')}]  ${task.startUrl}  ${task.taskTemplate}`).join('\n')}`,
    );
  }
  throw new RoteError(
    'invalid-argument',
    `${where}: no task matches ${JSON.stringify(reference)}; expected a task key, a unique key prefix or the exact template (${tasks.length === 0 ? 'the store has no tasks' : 'rote tasks lists them'})`,
  );
}

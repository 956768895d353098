import type { TaskSummary } from '../store/rows.js';
import { openExistingStore } from './storeArgument.js';
import { formatTable } from './table.js';

/** `rote tasks`: the cached tasks of a store, with their keys (what `rote export` takes). */
export async function tasksCommand(options: { store: string; json?: boolean }): Promise<number> {
  const store = await openExistingStore(options.store, 'tasks');
  try {
    const tasks = await store.listTasks();
    const shared = keysSharingTemplates(tasks);
    if (options.json) {
      const rows = tasks.map((task) => ({
        key: task.id,
        template: task.taskTemplate,
        tags: task.tags,
        startUrl: task.startUrl,
        paramNames: task.paramNames,
        nodes: task.nodes,
        updatedAt: task.updatedAt,
        otherKeys: (shared.get(task.taskTemplate) ?? []).filter((other) => other.id !== task.id).map((other) => other.id),
      }));
      process.stdout.write(`${JSON.stringify(rows)}\n`);
      return 0;
    }
    // rote proxy's conversations are not tasks: one line says they are there.
    const proxy = await store.conversations.totals();
    const proxyLine = proxy.nodes > 0 ? `\nrote proxy: ${proxy.replies} replies stored over ${proxy.nodes} messages, ${proxy.hits} requests served from them (rote stats has the tokens saved).\n` : '';
    if (tasks.length === 0) {
      process.stdout.write(`No tasks in ${options.store}.\n${proxyLine}`);
      return 0;
    }
    process.stdout.write(`${formatTable(['key', 'steps', 'tags', 'template'], tasks.map((task) => [task.id, task.nodes, task.tags.join(','), task.taskTemplate]))}\n`);
    if (shared.size > 0) process.stdout.write(`\n${describeShared(shared)}\n`);
    process.stdout.write(proxyLine);
    return 0;
  } finally {
    await store.close();
  }
}

/**
 * Templates stored under more than one key. A key is the template with its tags and start URL,
 * so one template with several keys learns in several places: each key's runs start from what
 * that key alone has seen. Shown so a user can give those runs the same tags or start URL.
 */
export function keysSharingTemplates(tasks: readonly TaskSummary[]): Map<string, TaskSummary[]> {
  const byTemplate = new Map<string, TaskSummary[]>();
  for (const task of tasks) byTemplate.set(task.taskTemplate, [...(byTemplate.get(task.taskTemplate) ?? []), task]);
  return new Map([...byTemplate].filter(([, group]) => group.length > 1));
}

function describeShared(shared: ReadonlyMap<string, readonly TaskSummary[]>): string {
  const lines = [`${shared.size === 1 ? 'One template is' : `${shared.size} templates are`} cached under several keys (each key learns on its own; give its runs the same tags and start URL to share one):`];
  for (const [template, group] of shared) {
    lines.push(`  ${JSON.stringify(template)}`);
    for (const task of group) lines.push(`    ${task.id}  start ${task.startUrl}${task.tags.length > 0 ? `  tags ${task.tags.join(',')}` : ''}`);
  }
  return lines.join('\n');
}

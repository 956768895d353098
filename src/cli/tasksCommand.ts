import { openExistingStore } from './storeArgument.js';
import { formatTable } from './table.js';

/** `rote tasks`: the cached tasks of a store, with their keys (what `rote export` takes). */
export function tasksCommand(options: { store: string; json?: boolean }): number {
  const store = openExistingStore(options.store, 'tasks');
  try {
    const tasks = store.listTasks();
    if (options.json) {
      const rows = tasks.map((task) => ({ key: task.id, template: task.taskTemplate, tags: task.tags, startUrl: task.startUrl, paramNames: task.paramNames, nodes: task.nodes, updatedAt: task.updatedAt }));
      process.stdout.write(`${JSON.stringify(rows)}\n`);
      return 0;
    }
    if (tasks.length === 0) {
      process.stdout.write(`No tasks in ${options.store}.\n`);
      return 0;
    }
    process.stdout.write(`${formatTable(['key', 'steps', 'tags', 'template'], tasks.map((task) => [task.id, task.nodes, task.tags.join(','), task.taskTemplate]))}\n`);
    return 0;
  } finally {
    store.close();
  }
}

import { exportRecording } from '../recordings/exportRecording.js';
import { openExistingStore } from './storeArgument.js';
import { findTask } from '../store/findTask.js';

/** `rote export <task> --out <folder>`: writes the task's trajectory as a recording folder. */
export async function exportCommand(task: string, options: { out: string; store: string; json?: boolean }): Promise<number> {
  const store = await openExistingStore(options.store, 'export');
  try {
    const found = findTask(await store.listTasks(), task, `rote export ${JSON.stringify(task)}`);
    const written = await exportRecording(store, found.id, options.out);
    if (options.json) process.stdout.write(`${JSON.stringify({ key: found.id, template: found.taskTemplate, folder: options.out, ...written })}\n`);
    else process.stdout.write(`Exported "${found.taskTemplate}" (${found.id}) to ${options.out}: ${written.nodes} steps, ${written.crops} evidence crops.\n`);
    return 0;
  } finally {
    await store.close();
  }
}

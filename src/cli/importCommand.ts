import { importRecording } from '../recordings/importRecording.js';
import { loadRecording } from '../recordings/readRecording.js';
import { openStore } from '../store/store.js';

/** `rote import <folder>`: stores a recording folder's trajectory, on --base-url's origin if given. */
export async function importCommand(folder: string, options: { store: string; baseUrl?: string; json?: boolean }): Promise<number> {
  // Validated before the store is opened: a bad folder leaves no new store file behind.
  await loadRecording(folder, `rote import ${JSON.stringify(folder)}`);
  const store = await openStore(options.store);
  try {
    const imported = await importRecording(store, folder, options.baseUrl === undefined ? {} : { baseURL: options.baseUrl });
    if (options.json) {
      process.stdout.write(`${JSON.stringify({ key: imported.taskKey, template: imported.template, tags: imported.tags, startUrl: imported.startUrl, nodes: imported.nodes, added: imported.added })}\n`);
    } else {
      process.stdout.write(`Imported "${imported.template}" as task ${imported.taskKey} (starts at ${imported.startUrl}): ${imported.nodes} steps, ${imported.added} new.\n`);
    }
    return 0;
  } finally {
    await store.close();
  }
}

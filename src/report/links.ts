import { createHash } from 'node:crypto';
import { fileSafe } from './layout.js';

/** Where each page and picture of a report lives, relative to the report folder. */
export const reportPaths = {
  run: (id: string) => `runs/${fileSafe(id)}.html`,
  task: (id: string) => `tasks/${fileSafe(id)}.html`,
  // Two names that differ only in characters a file name cannot hold still get two files.
  schedule: (name: string) => `schedules/${fileSafe(name).slice(0, 60)}-${createHash('sha256').update(name).digest('hex').slice(0, 8)}.html`,
  image: (hash: string, extension: string) => `images/${fileSafe(hash)}.${extension}`,
};

import { existsSync, statSync } from 'node:fs';
import { isAbsolute, resolve, sep } from 'node:path';
import { RoteError } from '../errors/roteError.js';
import { importRecording } from '../recordings/importRecording.js';
import type { Store } from '../store/store.js';

/** What the fixture needs from a recording folder once it is in the store. */
export type ImportedRecording = { folder: string; taskKey: string; task: string; tags: string[]; startUrl: string };

/**
 * `recording` is a folder name under the recordings folder (`'intake'`), or a path (it holds a
 * separator or is absolute), taken from the config file's folder like every path in the config.
 */
export function recordingFolder(recording: string, recordingsDir: string, baseDir: string): string {
  const isPath = isAbsolute(recording) || recording.includes('/') || recording.includes(sep);
  const folder = isPath ? resolve(baseDir, recording) : resolve(recordingsDir, recording);
  if (!existsSync(folder) || !statSync(folder).isDirectory()) {
    const looked = isPath ? folder : `${folder} (the recordings folder is ${recordingsDir}; set use.rote.recordings to change it)`;
    throw new RoteError('invalid-argument', `rote.run: recording ${JSON.stringify(recording)} is not a folder: looked for ${looked}`);
  }
  return folder;
}

/**
 * Imports the recording in `folder` into `store`, its URLs moved onto `origin` (where the test's
 * app runs now), and returns the task it records. Importing the same folder again adds nothing.
 */
export async function importRecordingFolder(store: Store, folder: string, origin: string): Promise<ImportedRecording> {
  const imported = await importRecording(store, folder, { baseURL: origin });
  return { folder, taskKey: imported.taskKey, task: imported.template, tags: imported.tags, startUrl: imported.startUrl };
}

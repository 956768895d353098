import { createHash } from 'node:crypto';
import { ROOT_ID } from '../trajectory/nodeRef.js';
import { storedState } from '../trajectory/trajectoryNode.js';
import { RoteError } from '../errors/roteError.js';
import { taskKeyOf } from '../params/taskKey.js';
import type { NewNodeRow, TaskRow } from '../store/rows.js';
import type { Store } from '../store/store.js';
import { loadRecording } from './readRecording.js';
import { checkStore } from './recordingArguments.js';
import { CROP_PATH, type RecordingFile } from './recordingSchema.js';
import { httpOrigin } from '../checks/urlCheck.js';
import { mapUrls, onOrigin } from './recordingUrls.js';

export type ImportRecordingOptions = {
  /**
   * Where the recording is to be replayed: its URLs on the recorded origin are put on this URL's
   * origin (only scheme, host and port are used). Default: the origin it was recorded on.
   */
  baseURL?: string;
};

export type ImportedRecording = {
  /** The key `rote.run` computes for this task on that origin, so a run finds the trajectory. */
  taskKey: string;
  /** What to pass to `rote.run` as `task` and `tags`. */
  template: string;
  tags: string[];
  /** The start URL on the target origin, normalized as in the key (record ids as `:id`, values as `{{name}}`). */
  startUrl: string;
  /** Steps in the recording. */
  nodes: number;
  /** Of those, the ones the store did not hold yet (0 when the same recording was imported before). */
  added: number;
};

/**
 * Reads a recording folder, validates all of it (nothing is written when any of it is wrong),
 * and stores its trajectory under the key a run on `baseURL`'s origin computes. Importing the
 * same folder again adds nothing; nodes already stored keep what runs have learned since.
 */
export async function importRecording(store: Store, folder: string, options: ImportRecordingOptions = {}): Promise<ImportedRecording> {
  const where = `importRecording(${JSON.stringify(folder)})`;
  checkStore(store, where);
  const target = targetOrigin(options, where);
  const recording = await loadRecording(folder, where);
  const origin = target ?? recording.file.origin;
  const file = origin ? mapUrls(recording.file, (url) => onOrigin(url, origin)) : recording.file;
  const taskKey = taskKeyOf(file.task.template, file.task.tags, file.task.startUrl);
  const ids = await nodeIds(store, taskKey, file);
  let added = 0;
  for (const node of file.nodes) if ((await store.getNode(ids(node.id)!)) === undefined) added++;
  const now = Date.now();
  const task: TaskRow = {
    id: taskKey,
    taskTemplate: file.task.template,
    tags: [...new Set(file.task.tags)].sort(),
    startUrl: file.task.startUrl,
    paramNames: file.task.paramNames,
    paramSchema: Object.keys(file.params).length > 0 ? file.params : null,
    createdAt: now,
    updatedAt: now,
  };
  const nodes: NewNodeRow[] = file.nodes.map((node, at) => ({
    id: ids(node.id)!,
    taskId: taskKey,
    parentId: ids(node.parentId),
    resumeAtId: ids(node.resumeAtId),
    action: node.action,
    intent: node.intent,
    url: node.url,
    fingerprint: node.fingerprint,
    box: node.box,
    cropHash: node.crop === null ? null : hashOf(node.crop),
    cropRect: node.cropRect,
    masks: node.masks,
    ...storedState(node.state),
    endsRun: node.endsRun,
    // Siblings are tried in creation order (until one succeeds): the file's order, kept just before now.
    createdAt: now - file.nodes.length + at,
  }));
  await store.importTrajectories([{ task, nodes, blobs: [...recording.crops].map(([hash, bytes]) => ({ hash, bytes })) }]);
  return { taskKey, template: task.taskTemplate, tags: task.tags, startUrl: task.startUrl, nodes: nodes.length, added };
}

function targetOrigin(options: unknown, where: string): string | undefined {
  if (options === undefined) return undefined;
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new RoteError('invalid-argument', `${where}: options must be an object such as { baseURL: "http://localhost:3000" }, got ${JSON.stringify(options)}`);
  }
  const unknown = Object.keys(options).filter((key) => key !== 'baseURL');
  if (unknown.length > 0) throw new RoteError('invalid-argument', `${where}: unknown option ${unknown.map((key) => JSON.stringify(key)).join(', ')}; the one option is baseURL`);
  const { baseURL } = options as ImportRecordingOptions;
  if (baseURL === undefined) return undefined;
  const origin = typeof baseURL === 'string' ? httpOrigin(baseURL) : undefined;
  if (!origin) throw new RoteError('invalid-argument', `${where}: options.baseURL must be an http(s) URL such as "http://localhost:3000", got ${JSON.stringify(baseURL)}`);
  return origin;
}

/**
 * The store id of each node of the file. Its own id, unless the store holds that id under another
 * task (the same recording imported for another origin): then an id derived from the task key, the
 * same on every import, so importing again is still idempotent.
 */
async function nodeIds(store: Store, taskKey: string, file: RecordingFile): Promise<(id: string | null) => string | null> {
  const ids = new Map<string, string>();
  for (const node of file.nodes) {
    const stored = await store.getNode(node.id);
    ids.set(node.id, stored && stored.taskId !== taskKey ? derivedId(taskKey, node.id) : node.id);
  }
  return (id) => (id === null || id === ROOT_ID ? id : (ids.get(id) ?? id));
}

function derivedId(taskKey: string, id: string): string {
  const hex = createHash('sha256').update(`${taskKey}/${id}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

function hashOf(cropPath: string): string {
  return CROP_PATH.exec(cropPath)![1]!; // validated when read
}

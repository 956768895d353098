import { nodeFromRow, rowState } from '../trajectory/trajectoryNode.js';
import { RoteError } from '../errors/roteError.js';
import { schemaFromStored } from '../params/paramSchema.js';
import type { ParamSchema } from '../params/paramType.js';
import type { NodeRow, TaskRow } from '../store/rows.js';
import type { Store } from '../store/store.js';
import { parseRecording } from './parseRecording.js';
import { checkFolder, checkStore } from './recordingArguments.js';
import { cropPathOf, RECORDING_FORMAT, RECORDING_VERSION, serializeRecording, type RecordingFile } from './recordingSchema.js';
import { mapUrls, recordingOrigin, relativeTo } from './recordingUrls.js';
import { writeRecordingFolder } from './writeRecording.js';
import { messageOf } from '../errors/messageOf.js';

export type ExportedRecording = {
  /** Steps written (the whole tree of the task). */
  nodes: number;
  /** Distinct evidence crops written. */
  crops: number;
};

/**
 * Writes the whole trajectory tree of the task `taskKey` as a recording folder: `recording.json`
 * and `evidence/<sha256>.png`. What changes with use (hits, misses, last use, timestamps) is left
 * out, so re-exporting an unchanged trajectory rewrites no byte; a folder from an earlier export
 * is updated in place. Secret values are never in the store, so never in an export.
 */
export async function exportRecording(store: Store, taskKey: string, folder: string): Promise<ExportedRecording> {
  const where = `exportRecording(${JSON.stringify(taskKey)})`;
  checkStore(store, where);
  if (typeof taskKey !== 'string' || taskKey === '') throw new RoteError('invalid-argument', `${where}: expected a task key (rote tasks lists them), got ${JSON.stringify(taskKey) ?? String(taskKey)}`);
  checkFolder(folder, where, 'the path of the folder to write');
  const { file, crops } = await recordingFromStore(store, taskKey, where);
  try {
    await writeRecordingFolder(folder, serializeRecording(file), crops, where);
  } catch (error) {
    if (RoteError.isInstance(error)) throw error;
    throw new RoteError('invalid-argument', `${where}: cannot write "${folder}": ${messageOf(error)}`, { cause: error });
  }
  return { nodes: file.nodes.length, crops: crops.size };
}

/** The task's tree as a validated recording (URLs relative to its origin) and the crops it points at. */
export async function recordingFromStore(store: Store, taskKey: string, where: string): Promise<{ file: RecordingFile; crops: Map<string, Buffer> }> {
  const task = await store.getTask(taskKey);
  if (!task) throw new RoteError('invalid-argument', `${where}: the store at "${store.location}" has no task with this key (rote tasks lists them)`);
  const rows = depthFirst(await store.subtree(taskKey, null, Number.MAX_SAFE_INTEGER));
  for (const row of rows) {
    // A damaged row is not written into a file a person will review and import elsewhere.
    const read = nodeFromRow(row);
    if (!read.ok) throw new RoteError('store', `${where}: the stored step ${row.id} cannot be read: ${read.reason}`);
  }
  const crops = new Map<string, Buffer>();
  for (const row of rows) {
    if (row.cropHash === null || crops.has(row.cropHash)) continue;
    const bytes = await store.getBlob(row.cropHash);
    if (!bytes) throw new RoteError('store', `${where}: the store at "${store.location}" has no crop ${row.cropHash} (node ${row.id} points at it)`);
    crops.set(row.cropHash, bytes);
  }
  const stored = {
    format: RECORDING_FORMAT,
    version: RECORDING_VERSION,
    task: { template: task.taskTemplate, tags: task.tags, startUrl: task.startUrl, paramNames: [...task.paramNames].sort() },
    params: sortedSchema(task),
    origin: null,
    nodes: rows.map(fileNode),
  };
  let file: RecordingFile;
  try {
    // Read as an import would: what is written is what a reader accepts, in the schema's key order.
    file = parseRecording(stored, `${where}: the stored trajectory does not fit the recording format`);
  } catch (error) {
    throw new RoteError('store', messageOf(error), { cause: error });
  }
  const origin = recordingOrigin(file);
  return { file: origin ? { ...mapUrls(file, (url) => relativeTo(url, origin)), origin } : file, crops };
}

/** Depth first from the root; siblings in the store's recording order (created, then id). */
function depthFirst(rows: readonly NodeRow[]): NodeRow[] {
  // subtree() returns (depth, createdAt, id) order, so each parent's children arrive in recording order.
  const children = new Map<string | null, NodeRow[]>();
  for (const row of rows) {
    const siblings = children.get(row.parentId);
    if (siblings) siblings.push(row);
    else children.set(row.parentId, [row]);
  }
  const ordered: NodeRow[] = [];
  const stack = [...(children.get(null) ?? [])].reverse();
  while (stack.length > 0) {
    const row = stack.pop()!;
    ordered.push(row);
    stack.push(...[...(children.get(row.id) ?? [])].reverse());
  }
  return ordered;
}

function fileNode(row: NodeRow) {
  return {
    id: row.id,
    parentId: row.parentId,
    resumeAtId: row.resumeAtId,
    action: row.action,
    intent: row.intent,
    url: row.url,
    fingerprint: row.fingerprint,
    box: row.box,
    cropRect: row.cropRect,
    masks: row.masks ?? [],
    state: rowState(row) ?? {},
    endsRun: row.endsRun,
    crop: row.cropHash === null ? null : cropPathOf(row.cropHash),
  };
}

/** The stored parameter types by name, as the engine reads them (an entry it cannot read is left out). */
function sortedSchema(task: TaskRow): ParamSchema {
  const schema = schemaFromStored(task.paramSchema);
  return Object.fromEntries(Object.keys(schema).sort().map((name) => [name, schema[name]!]));
}

import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { RoteError } from '../errors/roteError.js';
import { listProblems } from '../params/paramSchema.js';
import { parseRecording } from './parseRecording.js';
import { checkFolder } from './recordingArguments.js';
import { CROP_PATH, RECORDING_FILE, type RecordingFile } from './recordingSchema.js';
import { messageOf } from '../errors/messageOf.js';

/** A recording folder, read and validated. */
export type Recording = {
  /** The folder it was read from. */
  folder: string;
  /** recording.json: URLs on `file.origin` are relative to it. */
  file: RecordingFile;
  /** The evidence crops by sha256, each checked against its name. */
  crops: ReadonlyMap<string, Buffer>;
};

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * Reads a recording folder (`recording.json` and `evidence/`) and validates all of it: the format
 * version, every field, the tree, and that each crop's bytes hash to its name. Throws a
 * RoteError('invalid-argument') naming the problem; writes nothing.
 */
export async function readRecording(folder: string): Promise<Recording> {
  return loadRecording(folder, `readRecording(${JSON.stringify(folder)})`);
}

/** `readRecording` with the caller's name in its errors. */
export async function loadRecording(folder: string, where: string): Promise<Recording> {
  checkFolder(folder, where);
  const text = await readText(join(folder, RECORDING_FILE), folder, where);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new RoteError('invalid-argument', `${where}: ${RECORDING_FILE} is not JSON: ${messageOf(error)}`, { cause: error });
  }
  const file = parseRecording(json, where);
  const crops = new Map<string, Buffer>();
  const problems: string[] = [];
  for (const [at, node] of file.nodes.entries()) {
    const hash = node.crop === null ? undefined : CROP_PATH.exec(node.crop)?.[1];
    if (hash === undefined || crops.has(hash)) continue;
    const problem = await readCrop(folder, node.crop!, hash, crops);
    if (problem) problems.push(`nodes[${at}].crop: ${problem}`);
  }
  if (problems.length > 0) throw new RoteError('invalid-argument', listProblems(where, 'the evidence', problems));
  return { folder, file, crops };
}

async function readCrop(folder: string, path: string, hash: string, crops: Map<string, Buffer>): Promise<string | undefined> {
  let bytes: Buffer;
  try {
    bytes = await readFile(join(folder, path));
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? `${path} is missing from the folder` : `cannot read ${path}: ${messageOf(error)}`;
  }
  const actual = createHash('sha256').update(bytes).digest('hex');
  if (actual !== hash) return `${path} does not hold the image its name promises (its bytes hash to ${actual})`;
  if (!bytes.subarray(0, PNG_SIGNATURE.length).equals(PNG_SIGNATURE)) return `${path} is not a PNG image`;
  crops.set(hash, bytes);
  return undefined;
}

async function readText(path: string, folder: string, where: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const message =
      code === 'ENOENT'
        ? `no ${RECORDING_FILE} in "${folder}" (expected a folder written by exportRecording or \`rote export\`)`
        : code === 'ENOTDIR'
          ? `"${folder}" is not a folder (expected a recording folder holding ${RECORDING_FILE})`
          : `cannot read ${path}: ${messageOf(error)}`;
    throw new RoteError('invalid-argument', `${where}: ${message}`, { cause: error });
  }
}

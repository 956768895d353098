import { messageOf } from '../errors/messageOf.js';
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { RoteError } from '../errors/roteError.js';
import { cropPathOf, EVIDENCE_FOLDER, RECORDING_FILE } from './recordingSchema.js';

const CROP_FILE = /^[0-9a-f]{64}\.png$/;

/**
 * Writes a recording folder so that it holds exactly this recording: the crops by their hash
 * names, then recording.json (so a reader never meets a node whose crop is not there yet), then
 * crops no node points at any more are removed. A file that already holds its bytes is not
 * touched, so re-exporting an unchanged trajectory changes nothing on disk.
 */
export async function writeRecordingFolder(folder: string, text: string, crops: ReadonlyMap<string, Buffer>, where: string): Promise<void> {
  await checkTarget(folder, where);
  if (crops.size > 0) await mkdir(join(folder, EVIDENCE_FOLDER), { recursive: true });
  else await mkdir(folder, { recursive: true });
  for (const [hash, bytes] of crops) await writeIfChanged(join(folder, cropPathOf(hash)), bytes);
  await writeIfChanged(join(folder, RECORDING_FILE), Buffer.from(text, 'utf8'));
  let present: string[];
  try {
    present = await readdir(join(folder, EVIDENCE_FOLDER));
  } catch {
    return; // no evidence folder: nothing stale
  }
  for (const name of present) {
    if (CROP_FILE.test(name) && !crops.has(name.slice(0, 64))) await rm(join(folder, EVIDENCE_FOLDER, name), { force: true });
  }
}

/** An export goes to a new or empty folder, or updates a recording folder; it never scatters files into another folder. */
async function checkTarget(folder: string, where: string): Promise<void> {
  let entries: string[];
  try {
    entries = await readdir(folder);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return;
    const reason = code === 'ENOTDIR' ? 'it is a file' : messageOf(error);
    throw new RoteError('invalid-argument', `${where}: cannot export to "${folder}": ${reason}; expected a new or empty folder, or a recording folder to update`, { cause: error });
  }
  if (entries.length > 0 && !entries.includes(RECORDING_FILE)) {
    throw new RoteError(
      'invalid-argument',
      `${where}: "${folder}" is not empty and holds no ${RECORDING_FILE}; expected a new or empty folder, or a recording folder to update`,
    );
  }
}

async function writeIfChanged(path: string, bytes: Buffer): Promise<void> {
  try {
    if ((await readFile(path)).equals(bytes)) return;
  } catch {
    // absent or unreadable: written below
  }
  // Through a temporary file and a rename, so a reader never sees half a file.
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, bytes);
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Every file under `folder`, by path relative to it, with its bytes: how an export is compared
 * byte for byte with another (a re-export of an unchanged trajectory must change no byte).
 */
export function filesOf(folder: string, prefix = ''): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const entry of readdirSync(join(folder, prefix), { withFileTypes: true })) {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) for (const [inner, bytes] of filesOf(folder, path)) files.set(inner, bytes);
    else files.set(path, readFileSync(join(folder, path)));
  }
  return files;
}

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The version in rote's own package.json. It is looked up from this file upwards, since the
 * compiled CLI (dist/src/cli) and its source (src/cli) sit at different depths below it.
 */
export function packageVersion(): string {
  let folder = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
      if (manifest.name === 'rote' && typeof manifest.version === 'string') return manifest.version;
    } catch {
      // no package.json here, or not one that parses: look further up
    }
    const parent = dirname(folder);
    if (parent === folder) return 'unknown';
    folder = parent;
  }
}

import type { Store } from '../store/store.js';
import { reportPaths } from './links.js';

/**
 * The pictures a report's pages point at: each blob is read from the store once, named by its
 * content hash and kind, and written into the report's own folder. A blob the store no longer has
 * is shown as missing, never fetched from anywhere else.
 */
export class ImageLinks {
  private readonly files = new Map<string, { path: string; bytes: Buffer } | null>();

  constructor(private readonly store: Store) {}

  /** The picture's path relative to the report folder, or null when there is none. */
  path(hash: string | null): string | null {
    if (!hash) return null;
    let file = this.files.get(hash);
    if (file === undefined) {
      const bytes = this.store.getBlob(hash);
      const extension = bytes ? imageExtension(bytes) : undefined;
      file = bytes && extension ? { path: reportPaths.image(hash, extension), bytes } : null;
      this.files.set(hash, file);
    }
    return file?.path ?? null;
  }

  /** Every picture a page asked for, to write. */
  written(): { path: string; bytes: Buffer }[] {
    return [...this.files.values()].filter((file): file is { path: string; bytes: Buffer } => file !== null);
  }
}

/** Only what rote itself stores is written: PNG crops and WebP thumbnails. */
function imageExtension(bytes: Buffer): 'png' | 'webp' | undefined {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP') return 'webp';
  return undefined;
}

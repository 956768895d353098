import type { Store } from '../store/store.js';
import { reportPaths } from './links.js';
import type { ReportRun } from './reportModel.js';

/**
 * The pictures a report's pages point at: each blob is read from the store once, named by its
 * content hash and kind, and written into the report's own folder. A blob the store no longer has
 * is shown as missing, never fetched from anywhere else.
 */
export class ImageLinks {
  private readonly files = new Map<string, { path: string; bytes: Buffer } | null>();
  private readonly asked = new Set<string>();

  private constructor() {}

  /** Reads every picture the runs' pages show, before any page is made (pages are made synchronously). */
  static async of(store: Store, runs: readonly ReportRun[]): Promise<ImageLinks> {
    const links = new ImageLinks();
    const hashes = runs.flatMap((run) => [run.screenshot, ...run.steps.flatMap((step) => [step.thumb, step.page]), ...run.divergences.flatMap((divergence) => [divergence.expected, divergence.actual, divergence.diff])]);
    for (const hash of new Set(hashes)) {
      if (!hash) continue;
      const bytes = await store.getBlob(hash);
      const extension = bytes ? imageExtension(bytes) : undefined;
      links.files.set(hash, bytes && extension ? { path: reportPaths.image(hash, extension), bytes } : null);
    }
    return links;
  }

  /** The picture's path relative to the report folder, or null when there is none. */
  path(hash: string | null): string | null {
    if (!hash) return null;
    this.asked.add(hash);
    return this.files.get(hash)?.path ?? null;
  }

  /** Every picture a page asked for, to write. */
  written(): { path: string; bytes: Buffer }[] {
    return [...this.asked].flatMap((hash) => {
      const file = this.files.get(hash);
      return file ? [file] : [];
    });
  }
}

/** Only what rote itself stores is written: PNG crops and WebP thumbnails. */
function imageExtension(bytes: Buffer): 'png' | 'webp' | undefined {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP') return 'webp';
  return undefined;
}

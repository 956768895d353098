import { createHash } from 'node:crypto';
import { cropThumbnail, screenPicture, screenThumbnail } from '../checks/thumbnail.js';
import type { NewBlob } from '../store/rows.js';
import type { Divergence } from './runResult.js';

/** What a run saw, as PNGs with secrets already painted over, gathered while it runs. */
export type StepPictures = { thumb?: Buffer; page?: Buffer };

export type StepImageHashes = { thumbHash?: string; pageHash?: string };
export type DivergenceImageHashes = { expectedHash?: string; actualHash?: string; diffHash?: string };

/** The run's pictures as blobs, and which step, divergence and run each belongs to. */
export type RunImages = {
  blobs: NewBlob[];
  steps: Map<number, StepImageHashes>;
  /** By position in the result's divergences. */
  divergences: Map<number, DivergenceImageHashes>;
  screenshotHash?: string;
};

/**
 * Encodes a run's pictures for the store, after the run has acted (never on a step's path).
 * Thumbnails are lossy WebP; a divergence's three crops stay PNG, so its diff reads as the check
 * saw it and the recorded crop is the node's own blob (stored once). A picture that cannot be
 * encoded is left out: the report shows the step without it.
 */
export async function encodeRunImages(input: { steps: ReadonlyMap<number, StepPictures>; divergences: readonly Divergence[]; finalScreen: Buffer | undefined }): Promise<RunImages> {
  const blobs = new Map<string, Buffer>();
  const keep = (bytes: Buffer | undefined): string | undefined => {
    if (!bytes) return undefined;
    const hash = createHash('sha256').update(bytes).digest('hex');
    blobs.set(hash, bytes);
    return hash;
  };
  const encode = async (png: Buffer | undefined, how: (png: Buffer) => Promise<Buffer>) => (png ? how(png).catch(() => undefined) : undefined);
  const steps = new Map<number, StepImageHashes>();
  await Promise.all(
    [...input.steps].map(async ([index, pictures]) => {
      const [thumb, page] = await Promise.all([encode(pictures.thumb, cropThumbnail), encode(pictures.page, screenThumbnail)]);
      const hashes: StepImageHashes = {};
      const thumbHash = keep(thumb);
      const pageHash = keep(page);
      if (thumbHash) hashes.thumbHash = thumbHash;
      if (pageHash) hashes.pageHash = pageHash;
      steps.set(index, hashes);
    }),
  );
  const divergences = new Map<number, DivergenceImageHashes>();
  input.divergences.forEach((divergence, index) => {
    const hashes: DivergenceImageHashes = {};
    const expectedHash = keep(divergence.expected);
    const actualHash = keep(divergence.actual);
    const diffHash = keep(divergence.diff);
    if (expectedHash) hashes.expectedHash = expectedHash;
    if (actualHash) hashes.actualHash = actualHash;
    if (diffHash) hashes.diffHash = diffHash;
    divergences.set(index, hashes);
  });
  // The last screen of a failed run is read, not glanced at: kept at full width.
  const screenshotHash = keep(await encode(input.finalScreen, screenPicture));
  return { blobs: [...blobs].map(([hash, bytes]) => ({ hash, bytes })), steps, divergences, ...(screenshotHash ? { screenshotHash } : {}) };
}

import sharp from 'sharp';

/**
 * Pictures kept for the report only (never compared): small lossy WebP. A crop keeps its size (at
 * most 480 x 240 CSS pixels); a whole screen is scaled down to a width a report's timeline shows.
 * Quality 60 keeps text readable at a few kilobytes a picture, so a run's pictures stay well
 * inside the store's bytes-per-step budget. Effort 2 of WebP's 0 to 6 (sharp's default is 4)
 * encodes a crop in about half the time for about 5 % more bytes (13 intake crops: 17 ms against
 * 29 ms, 2.2 KB against 2.1 KB a crop): the encoding is on every run's path to its result.
 */
const THUMBNAIL_QUALITY = 60;
const THUMBNAIL_EFFORT = 2;
export const SCREEN_THUMBNAIL_WIDTH = 480;

/**
 * A crop's PNG this small is kept as it is. A form's crops are mostly flat colour: on the intake
 * form a crop's PNG is 0.4 KB and its WebP 0.26 KB, and encoding took 2.4 ms a crop (23 a run, on
 * the way to the run's result). A crop of a photo or a gradient is encoded: its PNG can be a
 * hundred times its WebP.
 */
export const KEPT_PNG_BYTES = 2048;

export async function cropThumbnail(png: Buffer): Promise<Buffer> {
  if (png.length <= KEPT_PNG_BYTES) return png;
  return sharp(png).webp({ quality: THUMBNAIL_QUALITY, effort: THUMBNAIL_EFFORT }).toBuffer();
}

export async function screenThumbnail(png: Buffer): Promise<Buffer> {
  return sharp(png).resize({ width: SCREEN_THUMBNAIL_WIDTH, withoutEnlargement: true }).webp({ quality: THUMBNAIL_QUALITY, effort: THUMBNAIL_EFFORT }).toBuffer();
}

/** A whole screen that is read, not glanced at (a failed run's last): full size, lossy. */
export async function screenPicture(png: Buffer): Promise<Buffer> {
  return sharp(png).webp({ quality: THUMBNAIL_QUALITY, effort: THUMBNAIL_EFFORT }).toBuffer();
}

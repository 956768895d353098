import sharp from 'sharp';

/**
 * Pictures kept for the report only (never compared): small lossy WebP. A crop keeps its size (at
 * most 480 x 240 CSS pixels); a whole screen is scaled down to a width a report's timeline shows.
 * Quality 60 keeps text readable at a few kilobytes a picture, so a run's pictures stay well
 * inside the store's bytes-per-step budget.
 */
const THUMBNAIL_QUALITY = 60;
export const SCREEN_THUMBNAIL_WIDTH = 480;

export async function cropThumbnail(png: Buffer): Promise<Buffer> {
  return sharp(png).webp({ quality: THUMBNAIL_QUALITY }).toBuffer();
}

export async function screenThumbnail(png: Buffer): Promise<Buffer> {
  return sharp(png).resize({ width: SCREEN_THUMBNAIL_WIDTH, withoutEnlargement: true }).webp({ quality: THUMBNAIL_QUALITY }).toBuffer();
}

/** A whole screen that is read, not glanced at (a failed run's last): full size, lossy. */
export async function screenPicture(png: Buffer): Promise<Buffer> {
  return sharp(png).webp({ quality: THUMBNAIL_QUALITY }).toBuffer();
}

/**
 * Looks at a source before any decode: the magic bytes (not an image: 415), the header through
 * sharp (corrupt: 422) and the pixel count (a decompression bomb: 413).
 */
import sharp from 'sharp';
import { createError } from '@tern/shared/errors/errors';
import { IMAGE_ERRORS } from './error-codes.js';
import { sniffFormat, type ImageFormat } from './formats.js';

export interface ImageProbe {
  /** The source's format, recognised from its magic bytes (formats.ts). */
  format: ImageFormat;
  /** Width and height as displayed, after the EXIF orientation. */
  width: number;
  height: number;
  pages: number;
  /** Pixels sharp would decode: all frames when animated. */
  pixels: number;
}

export async function probeImage(data: Buffer, animated: boolean): Promise<ImageProbe> {
  const format = sniffFormat(data);
  if (!format) throw createError(IMAGE_ERRORS.IMAGE_NOT_AN_IMAGE());
  let meta: sharp.Metadata;
  try {
    meta = await sharp(data, { limitInputPixels: false }).metadata();
  } catch {
    throw createError(IMAGE_ERRORS.IMAGE_UNREADABLE());
  }
  const width = meta.width ?? 0;
  const height = meta.pageHeight ?? meta.height ?? 0;
  const pages = meta.pages ?? 1;
  if (width <= 0 || height <= 0) throw createError(IMAGE_ERRORS.IMAGE_NO_SIZE());
  const pixels = width * height * (animated ? pages : 1);
  const swapped = (meta.orientation ?? 1) >= 5;
  return { format, width: swapped ? height : width, height: swapped ? width : height, pages, pixels };
}

/** A decompression bomb is refused before sharp decodes a single row. */
export function checkPixels(probe: ImageProbe, maxInputPixels: number): void {
  if (probe.pixels > maxInputPixels) {
    throw createError(IMAGE_ERRORS.IMAGE_TOO_MANY_PIXELS(probe.pixels, maxInputPixels));
  }
}

/**
 * Looks at a source before any decode: the magic bytes (not an image: 415), the header through
 * sharp (corrupt: 422) and the pixel count (a decompression bomb: 413).
 */
import sharp from 'sharp';
import { createError } from '#lib/errors.js';
import { IMAGE_ERRORS } from './error-codes.js';

export interface ImageProbe {
  type: 'jpeg' | 'png' | 'gif' | 'webp' | 'avif' | 'heif' | 'tiff' | 'svg';
  /** Width and height as displayed, after the EXIF orientation. */
  width: number;
  height: number;
  pages: number;
  /** Pixels sharp would decode: all frames when animated. */
  pixels: number;
}

const startsWith = (data: Buffer, bytes: number[], offset = 0) => bytes.every((b, i) => data[offset + i] === b);
const ascii = (data: Buffer, start: number, end: number) => data.subarray(start, end).toString('latin1');

/** The image type from its first bytes, or undefined when it is not an image sharp reads. */
export function sniffType(data: Buffer): ImageProbe['type'] | undefined {
  if (startsWith(data, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(data, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (ascii(data, 0, 4) === 'GIF8') return 'gif';
  if (ascii(data, 0, 4) === 'RIFF' && ascii(data, 8, 12) === 'WEBP') return 'webp';
  if (ascii(data, 4, 8) === 'ftyp') return /^avi[fs]$/.test(ascii(data, 8, 12)) ? 'avif' : 'heif';
  if (startsWith(data, [0x49, 0x49, 0x2a, 0x00]) || startsWith(data, [0x4d, 0x4d, 0x00, 0x2a])) return 'tiff';
  const head = data
    .subarray(0, 4096)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (head.startsWith('<') && /<svg[\s>]/i.test(head)) return 'svg';
  return undefined;
}

export async function probeImage(data: Buffer, animated: boolean): Promise<ImageProbe> {
  const type = sniffType(data);
  if (!type) throw createError(IMAGE_ERRORS.IMAGE_NOT_AN_IMAGE());
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
  return { type, width: swapped ? height : width, height: swapped ? width : height, pages, pixels };
}

/** A decompression bomb is refused before sharp decodes a single row. */
export function checkPixels(probe: ImageProbe, maxInputPixels: number): void {
  if (probe.pixels > maxInputPixels) {
    throw createError(IMAGE_ERRORS.IMAGE_TOO_MANY_PIXELS(probe.pixels, maxInputPixels));
  }
}

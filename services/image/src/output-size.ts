/**
 * The size a transform will produce, worked out from the header before any decode, so an output
 * over the dimension limit is refused (or, with no size asked, scaled down) instead of allocated.
 */
import { createError } from '@tern/shared/errors/errors';
import { IMAGE_ERRORS } from './error-codes.js';
import { resizeOf, type ImageModifiers } from './modifiers.js';

interface Size {
  width: number;
  height: number;
}

function resized(src: Size, m: ImageModifiers): Size {
  const enlarge = m.enlarge !== undefined;
  const box = resizeOf(m);
  if (box) {
    let { width, height } = box;
    if (!enlarge) {
      // ipx clamps `s` to the source while keeping the requested aspect ratio.
      const ratio = width / height;
      if (width > src.width) [width, height] = [src.width, Math.round(src.width / ratio)];
      if (height > src.height) [width, height] = [Math.round(src.height * ratio), src.height];
    }
    const fit = m.fit ?? 'cover';
    if (fit !== 'inside' && fit !== 'outside') return { width, height };
    const scale = (fit === 'inside' ? Math.min : Math.max)(width / src.width, height / src.height);
    return { width: Math.round(src.width * scale), height: Math.round(src.height * scale) };
  }
  const scaleTo = (target: number, current: number) => (enlarge ? target : Math.min(target, current)) / current;
  if (m.width !== undefined) {
    const scale = scaleTo(Number(m.width), src.width);
    return { width: Math.round(src.width * scale), height: Math.round(src.height * scale) };
  }
  if (m.height !== undefined) {
    const scale = scaleTo(Number(m.height), src.height);
    return { width: Math.round(src.width * scale), height: Math.round(src.height * scale) };
  }
  return src;
}

function extracted(src: Size, m: ImageModifiers): Size {
  if (m.extract === undefined) return src;
  const [left, top, width, height] = m.extract.split('_').map(Number) as [number, number, number, number];
  if (left + width > src.width || top + height > src.height) {
    throw createError(IMAGE_ERRORS.IMAGE_EXTRACT_OUTSIDE(src.width, src.height));
  }
  return { width, height };
}

function rotated(size: Size, m: ImageModifiers): Size {
  if (m.rotate === undefined) return size;
  const radians = (Number(m.rotate) * Math.PI) / 180;
  const cos = Math.abs(Math.cos(radians));
  const sin = Math.abs(Math.sin(radians));
  return { width: Math.round(size.width * cos + size.height * sin), height: Math.round(size.width * sin + size.height * cos) };
}

function extended(size: Size, m: ImageModifiers): Size {
  if (m.extend === undefined) return size;
  const [top, right, bottom, left] = m.extend.split('_').map(Number) as [number, number, number, number];
  return { width: size.width + left + right, height: size.height + top + bottom };
}

export function expectedOutputSize(source: Size, m: ImageModifiers): Size {
  return extended(rotated(resized(extracted(source, m), m), m), m);
}

/**
 * Returns the modifiers to run: as given when the output fits, with a width or height bound on the
 * longer side when no size was asked and the source alone is too big, otherwise 400.
 */
export function boundOutput(source: Size, m: ImageModifiers, max: number): ImageModifiers {
  const fits = (s: Size) => s.width <= max && s.height <= max;
  if (fits(expectedOutputSize(source, m))) return m;
  const asked = m.width !== undefined || m.height !== undefined || m.resize !== undefined;
  if (!asked) {
    const side = source.width >= source.height ? 'width' : 'height';
    const bounded = { ...m, [side]: String(max) };
    if (fits(expectedOutputSize(source, bounded))) return bounded;
  }
  const out = expectedOutputSize(source, m);
  throw createError(IMAGE_ERRORS.IMAGE_OUTPUT_TOO_LARGE(out.width, out.height, max));
}

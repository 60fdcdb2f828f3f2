/**
 * Width snapping: a requested width moves up to the next width of packages/shared/src/config/image-widths.ts (breakpoints
 * x densities, the same list the renderer's srcsets are made of) or to a placeholder width, so a
 * client cannot fill the cache with one variant per pixel.
 */
import { IMAGE_WIDTHS, snapImageWidth } from '@tern/shared/config/image-widths';
import { resizeOf, type ImageModifiers } from './modifiers.js';

export function snapWidthSet(extra: readonly number[], maxDimension: number): number[] {
  const widths = new Set<number>([...extra, ...IMAGE_WIDTHS]);
  return [...widths].filter((w) => w <= maxDimension).sort((a, b) => a - b);
}

/** The smallest allowed width at least `width`, or the largest allowed one. */
export const snapWidth = (width: number, allowed: readonly number[]): number => snapImageWidth(width, allowed);

export function snapModifiers(modifiers: ImageModifiers, allowed: readonly number[], maxDimension: number): ImageModifiers {
  if (allowed.length === 0) return modifiers;
  const result = { ...modifiers };
  if (result.width !== undefined) result.width = String(snapWidth(Number(result.width), allowed));
  const size = resizeOf(result);
  if (size) {
    const width = snapWidth(size.width, allowed);
    // Keep the requested aspect ratio; the height follows the snapped width.
    const height = Math.min(maxDimension, Math.max(1, Math.round((size.height * width) / size.width)));
    result.resize = `${width}x${height}`;
  }
  return result;
}

/**
 * The image widths the optimiser produces, one list for both sides: the image service snaps every
 * requested width up to one of these, and the renderer's srcset builder asks only for these, so
 * each `w` descriptor is the width that really comes back. Browser-safe.
 *
 * Every breakpoint x density width (docs/spec.md §9: 320 … 3072) is in it, with steps between
 * them so that no width is more than 1.25 times the one below: an image shown between two
 * widths downloads at most 1.56 times the pixels it shows. With breakpoints x densities alone a
 * 340 px cover came back 640 px wide (3.5 times the pixels); a source still has at most 15
 * cached widths per format.
 */
import { IMAGE_BREAKPOINTS, IMAGE_DENSITIES } from './constants.js';

const STEPS = [384, 448, 512, 576, 896, 1792];

export const IMAGE_WIDTHS: readonly number[] = [
  ...new Set([
    ...Object.values(IMAGE_BREAKPOINTS).flatMap((breakpoint) => IMAGE_DENSITIES.map((density) => breakpoint * density)),
    ...STEPS,
  ]),
].sort((a, b) => a - b);

/** The smallest allowed width at least `width`, or the largest allowed one. */
export function snapImageWidth(width: number, allowed: readonly number[] = IMAGE_WIDTHS): number {
  return allowed.find((w) => w >= width) ?? allowed[allowed.length - 1] ?? width;
}

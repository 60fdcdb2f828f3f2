/**
 * Image URLs for the optimiser (docs/spec.md §7, §9): `/_ipx/{modifiers}/{src}` with modifiers written
 * as ipx reads them (`w_640,f_webp`; `_` for none), and srcsets from the breakpoints
 * xs 320 … 2xl 1536 with densities 1 and 2. Every srcset candidate asks for a width of
 * packages/shared/src/config/image-widths.ts, the list the image service snaps to, so its `w` descriptor is the width
 * that really comes back. Browser-safe: the server renders with it too.
 */
import { IMAGE_BREAKPOINTS, IMAGE_DENSITIES } from '@tern/shared/config/constants';
import { snapImageWidth } from '@tern/shared/config/image-widths';
import { IMAGE_BASE, imagePath } from '@tern/shared/url-space/images';

/** docs/spec.md §9. */
export const DEFAULT_IMAGE_FORMAT = 'webp';

export type Breakpoint = keyof typeof IMAGE_BREAKPOINTS;

export interface ImageModifiers {
  width?: number;
  height?: number;
  format?: string;
  quality?: number;
  fit?: 'cover' | 'contain' | 'fill' | 'inside' | 'outside';
  background?: string;
  position?: string;
}

export const DEFAULT_IMAGE_BASE_URL = IMAGE_BASE;
/**
 * The `elementtiming` name of a page's preloaded (hero) image: the production bootstrap waits for
 * its paint before hydrating (server/hydrate-after-paint.ts).
 */
export const HERO_ELEMENT_TIMING = 'hero';
const config = { baseURL: DEFAULT_IMAGE_BASE_URL };

/** Where the optimiser is mounted, if not at `/_ipx` (e.g. behind an assets prefix). */
export function configureImages(change: { baseURL?: string }): void {
  if (change.baseURL) config.baseURL = change.baseURL.replace(/\/+$/, '');
}

/** The modifiers segment: `s_WxH` (or `w_`/`h_`), then `f_`, `q_`, `fit_`, `b_`, `pos_`; `_` when empty. */
export function imageModifiersSegment(modifiers: ImageModifiers): string {
  const { width, height, format, quality, fit, background, position } = modifiers;
  const parts: string[] = [];
  if (width && height) parts.push(`s_${width}x${height}`);
  else if (width) parts.push(`w_${width}`);
  else if (height) parts.push(`h_${height}`);
  if (format) parts.push(`f_${format}`);
  if (quality !== undefined) parts.push(`q_${quality}`);
  if (fit) parts.push(`fit_${fit}`);
  if (background) parts.push(`b_${background.replace(/^#/, '')}`);
  if (position) parts.push(`pos_${position}`);
  return parts.length ? parts.map((p) => encodeURIComponent(p).replace(/%2C/gi, ',')).join(',') : '_';
}

/** `/_ipx/{modifiers}/{src}`; the path is percent-encoded segment by segment, remote URLs kept whole. */
export function imageUrl(src: string, modifiers: ImageModifiers = {}, baseURL: string = config.baseURL): string {
  const path = /^https?:\/\//.test(src) ? src : src.replace(/^\/+/, '').split('/').map(encodePathSegment).join('/');
  return imagePath(imageModifiersSegment(modifiers), path, baseURL);
}

function encodePathSegment(segment: string): string {
  try {
    return encodeURIComponent(decodeURIComponent(segment));
  } catch {
    return encodeURIComponent(segment);
  }
}

export interface SizeEntry {
  /** Smallest viewport width (px) the size applies from; 0 for the bare entry. */
  from: number;
  /** A CSS length: `100vw` or `400px`. */
  size: string;
}

/**
 * Parses `sizes` written mobile-first as Tailwind does: `100vw md:50vw lg:400px` means 100vw
 * below md, 50vw from md, 400px from lg. A bare number is pixels.
 */
export function parseSizes(sizes: string): SizeEntry[] {
  const entries = new Map<number, string>();
  for (const token of sizes
    .trim()
    .split(/[\s,]+/)
    .filter(Boolean)) {
    const colon = token.indexOf(':');
    const key = colon === -1 ? '' : token.slice(0, colon);
    const raw = colon === -1 ? token : token.slice(colon + 1);
    const from = key === '' ? 0 : IMAGE_BREAKPOINTS[key as Breakpoint];
    if (from === undefined) throw new Error(`Unknown image breakpoint "${key}" in sizes "${sizes}"`);
    const size = /^\d+$/.test(raw) ? `${raw}px` : raw;
    if (!/^\d+(\.\d+)?(vw|px)$/.test(size)) throw new Error(`Image size "${raw}" must be in vw or px`);
    entries.set(from, size);
  }
  if (entries.size === 0) throw new Error('Image sizes must not be empty');
  return [...entries].sort(([a], [b]) => a - b).map(([from, size]) => ({ from, size }));
}

const BREAKPOINT_WIDTHS: number[] = Object.values(IMAGE_BREAKPOINTS);
const LARGEST_BREAKPOINT = Math.max(...BREAKPOINT_WIDTHS);

/** The image widths (1x) one size entry needs across the viewports it covers. */
function entryWidths(entry: SizeEntry, until: number | undefined): number[] {
  if (entry.size.endsWith('px')) return [Math.round(parseFloat(entry.size))];
  const share = parseFloat(entry.size) / 100;
  const top = until ?? Math.max(LARGEST_BREAKPOINT, entry.from);
  const viewports = BREAKPOINT_WIDTHS.filter((w) => w >= entry.from && w <= top);
  if (!viewports.includes(top)) viewports.push(top);
  return viewports.map((w) => Math.round(w * share));
}

export interface ImageSources {
  src: string;
  srcset?: string;
  sizes?: string;
}

export interface ImageSourcesOptions extends Omit<ImageModifiers, 'width' | 'height'> {
  width: number;
  height?: number;
  sizes?: string;
  densities?: readonly number[];
  baseURL?: string;
  /** The source image's own width: the service never enlarges, so no candidate may claim more. */
  sourceWidth?: number;
}

/**
 * src, srcset and sizes for an image. The widths wanted are, with `sizes`, every breakpoint each
 * entry covers at each density, and without it `width` at each density (then `sizes` is `width`
 * in px). Each is asked for at the width the service snaps it to, described with the width it
 * returns (capped at `sourceWidth`), one candidate per returned width.
 */
export function imageSources(source: string, options: ImageSourcesOptions): ImageSources {
  // A pure function of its inputs, asked again for the same images on every render.
  const key = `${config.baseURL}\n${source}\n${JSON.stringify(options)}`;
  let sources = remembered.get(key);
  if (!sources) {
    sources = computeImageSources(source, options);
    if (remembered.size >= REMEMBERED_MAX) remembered.clear();
    remembered.set(key, sources);
  }
  return { ...sources };
}

const REMEMBERED_MAX = 512;
const remembered = new Map<string, ImageSources>();

function computeImageSources(source: string, options: ImageSourcesOptions): ImageSources {
  const { width, height, sizes, densities = IMAGE_DENSITIES, baseURL, sourceWidth, ...rest } = options;
  const modifiers: ImageModifiers = { format: DEFAULT_IMAGE_FORMAT, ...rest };
  const ratio = height ? height / width : 0;
  const at = (w: number): string =>
    imageUrl(source, { ...modifiers, width: w, ...(ratio ? { height: Math.round(w * ratio) } : {}) }, baseURL);
  const wanted: number[] = [];
  let sizesAttr: string;
  if (sizes) {
    const entries = parseSizes(sizes);
    entries.forEach((entry, i) => {
      const next = entries[i + 1];
      for (const w of entryWidths(entry, next ? next.from : undefined)) for (const d of densities) wanted.push(Math.round(w * d));
    });
    sizesAttr = entries
      .map((entry, i) => {
        const next = entries[i + 1];
        return next ? `(max-width: ${next.from - 1}px) ${entry.size}` : entry.size;
      })
      .join(', ');
  } else {
    for (const d of densities) wanted.push(Math.round(width * d));
    sizesAttr = `${width}px`;
  }
  // Returned width -> the smallest snapped width that returns it.
  const candidates = new Map<number, number>();
  for (const w of wanted) {
    const asked = snapImageWidth(w);
    const returned = sourceWidth ? Math.min(asked, sourceWidth) : asked;
    const known = candidates.get(returned);
    if (known === undefined || asked < known) candidates.set(returned, asked);
  }
  const sorted = [...candidates].sort(([a], [b]) => a - b);
  const largest = sorted.at(-1);
  return {
    // Old browsers without srcset: the largest with sizes (as @nuxt/image), else the 1x width.
    src: at(sizes && largest ? largest[1] : snapImageWidth(width)),
    srcset: sorted.map(([returned, asked]) => `${at(asked)} ${returned}w`).join(', '),
    sizes: sizesAttr,
  };
}

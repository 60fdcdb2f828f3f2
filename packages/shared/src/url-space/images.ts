/**
 * The image optimiser's URL space, Nuxt Image's `/_ipx/{modifiers}/{source}`: the gateway sends it
 * to the image service, the site's pages build their image URLs under it. Browser-safe: no imports.
 */

/** Where the optimiser is mounted, without the trailing slash (a base URL for image URLs). */
export const IMAGE_BASE = '/_ipx';
/** Every image URL starts with it. */
export const IMAGE_PREFIX = `${IMAGE_BASE}/`;

/** True for a request URL (or path) of the optimiser. */
export function isImagePath(url: string): boolean {
  return url.startsWith(IMAGE_PREFIX);
}

/** `/_ipx/{modifiers}/{source}`, from the modifiers segment and a source path or URL already encoded. */
export function imagePath(modifiers: string, source: string, base: string = IMAGE_BASE): string {
  return `${base}/${modifiers}/${source}`;
}

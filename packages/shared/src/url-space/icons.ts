/**
 * The icon service's URL space, Nuxt Icon's `/api/_nuxt_icon`: `{base}` lists the collections,
 * `{base}/{collection}.json?icons=a,b` is a subset, `{base}/{collection}/{name}.svg` one icon.
 * Browser-safe: no imports.
 */

/** The icon endpoint, without the trailing slash. */
export const ICONS_BASE = '/api/_nuxt_icon';
/** Every icon request under the endpoint starts with it. */
export const ICONS_PREFIX = `${ICONS_BASE}/`;

/** True for a request URL of an icon set or icon (not the bare listing). */
export function isIconPath(url: string): boolean {
  return url.startsWith(ICONS_PREFIX);
}

/** True for the endpoint itself or anything under it, with or without a query. */
export function isUnderIcons(url: string): boolean {
  return url === ICONS_BASE || url.startsWith(ICONS_PREFIX) || url.startsWith(`${ICONS_BASE}?`);
}

/** `{base}/{collection}.json?icons=a,b`: the subset of a collection, names as given (already safe). */
export function iconSetUrl(collection: string, names: readonly string[], base: string = ICONS_BASE): string {
  return `${base}/${collection}.json?icons=${names.join(',')}`;
}

/** `{base}/{collection}/{name}.svg`: one icon as an SVG document. */
export function iconSvgPath(collection: string, name: string, base: string = ICONS_BASE): string {
  return `${base}/${collection}/${name}.svg`;
}

/**
 * The payload URL space, Nuxt's `{route}/_payload.json?{buildId}`: a page's loader data for client
 * navigations. Browser-safe: no imports.
 */

/** The payload's file name, the last segment of every payload path. */
export const PAYLOAD_FILE = '_payload.json';
/** What every payload path ends with. */
export const PAYLOAD_SUFFIX = `/${PAYLOAD_FILE}`;

/** True for a payload path (no query). */
export function isPayloadPath(path: string): boolean {
  return path.endsWith(PAYLOAD_SUFFIX);
}

/** `/` -> `/_payload.json`; `/posts/hello` (or `/posts/hello/`) -> `/posts/hello/_payload.json`. */
export function payloadPath(pathname: string): string {
  return `${pathname.replace(/\/+$/, '')}${PAYLOAD_SUFFIX}`;
}

/** The page path of a payload path, or null when `pathname` is not one. */
export function pagePathOfPayload(pathname: string): string | null {
  if (!pathname.endsWith(PAYLOAD_SUFFIX)) return null;
  return pathname.slice(0, -PAYLOAD_SUFFIX.length) || '/';
}

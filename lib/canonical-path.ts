/**
 * One spelling per page, shared by the gateway (its cache key and redirect) and the renderer
 * (before its route matcher, whose routes take `PATHS_ARE_CASE_SENSITIVE`): `/posts/hell%6F`,
 * `/%70osts/hello` and `/posts/hello/` are all `/posts/hello`. Browser-safe, dependency-free.
 *
 * - Percent-encoded unreserved characters (RFC 3986 §2.3: letters, digits, `-._~`) are decoded;
 *   other percent-encodings stay encoded with uppercase hex (`%2f` → `%2F`: never a separator).
 *   Dots that would make a `.` or `..` segment stay encoded: decoding must never create a path
 *   a browser would resolve elsewhere.
 * - Case is significant: a site's routes and slugs are lowercase (DESIGN.md: a malformed id is a
 *   404), so `/POSTS/hello` and `/posts/Hello` name no page and are 404 at the renderer, whose
 *   matcher is case-sensitive by this rule.
 * - No trailing slash, except the root `/`.
 */
import { PAYLOAD_FILE } from './url-space/payload.js';

/** The renderer's routes match case-sensitively: only the lowercase spelling names a page. */
export const PATHS_ARE_CASE_SENSITIVE = true;

const ENCODED = /%([0-9a-fA-F]{2})/g;
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

function decodeSegment(segment: string): string {
  const decoded = segment.replace(ENCODED, (_match, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : `%${hex.toUpperCase()}`;
  });
  // `%2e%2E` or `.%2e` decoded would be a dot segment: keep the dots encoded, as sent but uppercase.
  return /^\.{1,2}$/.test(decoded) && segment !== decoded ? decoded.replace(/\./g, '%2E') : decoded;
}

/** The canonical spelling of a URL path (no query). */
export function canonicalPath(path: string): string {
  // Most paths asked for are already canonical: no percent sign, no trailing slash.
  if (!path.includes('%') && (path.length === 1 || !path.endsWith('/'))) return path;
  const decoded = path.split('/').map(decodeSegment).join('/');
  return decoded.length > 1 && decoded.endsWith('/') ? decoded.replace(/\/+$/, '') || '/' : decoded;
}

/**
 * A file (`/images/git.jpg`, `/favicon.ico`): its name is whatever the file system holds, so it is
 * never respelled. Pages never have a dot in their last segment; a page's payload is a page path.
 */
function isFilePath(path: string): boolean {
  const last = path.slice(path.lastIndexOf('/') + 1);
  return last.includes('.') && last !== PAYLOAD_FILE;
}

/**
 * Where a request for `url` (path and query as sent) should go instead, or null when its path is
 * already canonical. The query is kept as sent; a path that would leave the site (`//host`) is
 * never produced: leading slashes collapse to one.
 */
export function canonicalRedirect(url: string): string | null {
  const queryAt = url.indexOf('?');
  const path = queryAt >= 0 ? url.slice(0, queryAt) : url;
  if (isFilePath(path)) return null;
  const canonical = canonicalPath(path);
  if (canonical === path) return null;
  const safe = canonical.replace(/^[/\\]+/, '/');
  return `${safe}${queryAt >= 0 ? url.slice(queryAt) : ''}`;
}

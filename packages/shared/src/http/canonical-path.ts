/**
 * One spelling per page, shared by the gateway (before its route rules and cache keys, with a
 * redirect) and the renderer (before its route matcher, whose routes take
 * `PATHS_ARE_CASE_SENSITIVE`): every spelling a browser's URL parser would resolve to the same
 * page (`/posts/hell%6F`, `/posts/./hello`, `/x/../posts/hello`, `/posts/%2E/hello`,
 * `/posts//hello`, `/posts/hello\`, `/posts/hello#top`, `/posts/hello/`) is `/posts/hello`, so
 * no other spelling is ever a cache entry of its own. Browser-safe, dependency-free.
 *
 * - `\` is a `/` (WHATWG URL does so for http(s); the renderer's parser did, so must this).
 * - Percent-encoded unreserved characters (RFC 3986 §2.3: letters, digits, `-._~`) are decoded;
 *   other percent-encodings stay encoded with uppercase hex (`%2f` → `%2F`: never a separator).
 * - Dot segments are removed (RFC 3986 §5.2.4), also spelled `%2E` in any case (WHATWG URL):
 *   `..` above the root stays at the root.
 * - Empty segments (`//`) are dropped, and with them any trailing slash but the root's.
 * - Case is significant: a site's routes and slugs are lowercase (DESIGN.md: a malformed id is a
 *   404), so `/POSTS/hello` and `/posts/Hello` name no page and are 404 at the renderer, whose
 *   matcher is case-sensitive by this rule.
 * - A fragment is the client's own (RFC 9110 §7.1); sent in a request line, it is dropped.
 */
import { PAYLOAD_FILE } from '../url-space/payload.js';

/** The renderer's routes match case-sensitively: only the lowercase spelling names a page. */
export const PATHS_ARE_CASE_SENSITIVE = true;

const ENCODED = /%([0-9a-fA-F]{2})/g;
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
/** Anything that may make a path non-canonical: a `%`, a `\`, an empty or a dot segment, a trailing `/`. */
const MAYBE_NON_CANONICAL = /%|\\|\/\/|\/\.|.\/$/;
/** A `.` or `..` segment, in any spelling: it names no file. */
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

function decodeSegment(segment: string): string {
  if (!segment.includes('%')) return segment;
  return segment.replace(ENCODED, (_match, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : `%${hex.toUpperCase()}`;
  });
}

/**
 * The canonical spelling of a URL path (no query, no fragment). `decode: false` (a file's path)
 * resolves only the structure (slashes and dot segments) and keeps each name as sent.
 */
export function canonicalPath(path: string, decode = true): string {
  // Most paths asked for are already canonical: one regular expression says so (a cache hit's cost).
  if (!MAYBE_NON_CANONICAL.test(path)) return path;
  const kept: string[] = [];
  for (const raw of path.replace(/\\/g, '/').split('/')) {
    const segment = decode || DOT_SEGMENT.test(raw) ? decodeSegment(raw) : raw;
    if (segment === '' || segment === '.') continue;
    if (segment === '..') kept.pop();
    else kept.push(segment);
  }
  return `/${kept.join('/')}`;
}

/**
 * A file (`/images/git.jpg`, `/favicon.ico`): its name is whatever the file system holds, so it is
 * never decoded (its folders' slashes and dot segments are still resolved). Pages never have a dot in their last segment; a page's payload is a page path.
 */
function isFilePath(path: string): boolean {
  const slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  const last = path.slice(slash + 1);
  return last.includes('.') && last !== PAYLOAD_FILE && !DOT_SEGMENT.test(last);
}

/**
 * Where a request for `url` (path, query and fragment as sent) should go instead, or null when it
 * is already canonical. The query is kept as sent, the fragment dropped; a path that would leave
 * the site (`//host`) is never produced: the canonical path starts with exactly one slash.
 */
export function canonicalRedirect(url: string): string | null {
  const hashAt = url.indexOf('#');
  const target = hashAt >= 0 ? url.slice(0, hashAt) : url;
  const queryAt = target.indexOf('?');
  const path = queryAt >= 0 ? target.slice(0, queryAt) : target;
  const query = queryAt >= 0 ? target.slice(queryAt) : '';
  const canonical = canonicalPath(path, !isFilePath(path));
  if (canonical === path && hashAt < 0) return null;
  return `${canonical.replace(/^[/\\]+/, '/')}${query}`;
}

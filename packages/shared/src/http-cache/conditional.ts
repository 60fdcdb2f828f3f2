/**
 * Conditional requests (RFC 9110 §13), shared by every service that answers with validators:
 * the image and icon services and the gateway's render cache.
 */

const opaque = (tag: string) => tag.trim().replace(/^W\//, '');

/** Weak comparison against an If-None-Match list (or `*`), as a GET or HEAD must use. */
export function etagMatches(ifNoneMatch: string | string[] | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  const value = Array.isArray(ifNoneMatch) ? ifNoneMatch.join(',') : ifNoneMatch;
  if (value.trim() === '*') return true;
  const wanted = opaque(etag);
  return value.split(',').some((tag) => opaque(tag) === wanted);
}

/** If-Modified-Since counts only when If-None-Match is absent (RFC 9110 §13.1.3). */
export function isNotModified(
  headers: { 'if-none-match'?: string | string[] | undefined; 'if-modified-since'?: string | undefined },
  etag: string,
  mtime?: Date,
): boolean {
  if (headers['if-none-match'] !== undefined) return etagMatches(headers['if-none-match'], etag);
  const since = headers['if-modified-since'];
  if (!since || !mtime) return false;
  const sinceMs = Date.parse(since);
  // HTTP dates have whole seconds; a file's mtime has milliseconds.
  return Number.isFinite(sinceMs) && Math.floor(mtime.getTime() / 1000) * 1000 <= sinceMs;
}

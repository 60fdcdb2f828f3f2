/**
 * Validators and freshness: a weak ETag made from the cache key (source identity + modifiers +
 * format), known before any decode, so a matching conditional request costs no transform.
 */
import { createHash } from 'node:crypto';

export function cacheKey(parts: { source: string; identity: string; modifiers: string; format: string }): string {
  return createHash('sha256')
    .update(JSON.stringify([parts.source, parts.identity, parts.modifiers, parts.format]))
    .digest('base64url');
}

export const etagOf = (key: string) => `W/"${key.slice(0, 32)}"`;

const opaque = (tag: string) => tag.trim().replace(/^W\//, '');

/** RFC 9110 weak comparison against an If-None-Match list (or `*`). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const wanted = opaque(etag);
  return ifNoneMatch.split(',').some((tag) => opaque(tag) === wanted);
}

/** If-Modified-Since counts only when If-None-Match is absent (RFC 9110 13.1.3). */
export function isNotModified(
  headers: { 'if-none-match'?: string | undefined; 'if-modified-since'?: string | undefined },
  etag: string,
  mtime: Date | undefined,
): boolean {
  if (headers['if-none-match'] !== undefined) return etagMatches(headers['if-none-match'], etag);
  const since = headers['if-modified-since'];
  if (!since || !mtime) return false;
  const sinceMs = Date.parse(since);
  // HTTP dates have whole seconds; the file's mtime has milliseconds.
  return Number.isFinite(sinceMs) && Math.floor(mtime.getTime() / 1000) * 1000 <= sinceMs;
}

export function isFingerprinted(source: string, pattern: RegExp): boolean {
  return pattern.test(source.split('?')[0] ?? '');
}

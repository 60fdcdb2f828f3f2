/** Caching headers of the icon routes: a week fresh, a strong ETag, 304 when it matches. */
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { etagMatches } from '@tern/shared/http-cache/conditional';

export const SUCCESS_CACHE_CONTROL = 'public, max-age=604800, stale-while-revalidate=86400';
/** A mistyped name or unknown set may be fixed soon; caches forget it after five minutes. */
export const CLIENT_ERROR_CACHE_CONTROL = 'public, max-age=300';
/** A failure must never be cached: the client falls back to the public API and retries later. */
export const SERVER_ERROR_CACHE_CONTROL = 'no-store';

/** Bumped when the shape of a response changes, so old ETags stop matching. */
const RESPONSE_FORMAT = '1';

/** A strong ETag: the answer is fully determined by the package version and these parts. */
export function strongEtag(version: string, parts: readonly string[]): string {
  const hash = createHash('sha256');
  hash.update(`${RESPONSE_FORMAT}\n${version}`);
  for (const part of parts) hash.update(`\n${part}`);
  return `"${hash.digest('base64url').slice(0, 32)}"`;
}

/**
 * Sets the success caching headers; answers 304 and returns true when the client's copy is
 * current, so the caller can skip building the body (and loading the set).
 */
export function answeredNotModified(request: FastifyRequest, reply: FastifyReply, etag: string): boolean {
  reply.header('etag', etag).header('cache-control', SUCCESS_CACHE_CONTROL);
  if (!etagMatches(request.headers['if-none-match'], etag)) return false;
  void reply.code(304).send();
  return true;
}

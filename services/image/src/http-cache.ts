/**
 * Validators and freshness: a weak ETag made from the cache key (source identity + modifiers +
 * format), known before any decode, so a matching conditional request costs no transform. The
 * comparison itself is packages/shared/src/http-cache/conditional.ts.
 */
import { createHash } from 'node:crypto';

export function cacheKey(parts: { source: string; identity: string; modifiers: string; format: string }): string {
  return createHash('sha256')
    .update(JSON.stringify([parts.source, parts.identity, parts.modifiers, parts.format]))
    .digest('base64url');
}

export const etagOf = (key: string) => `W/"${key.slice(0, 32)}"`;

export function isFingerprinted(source: string, pattern: RegExp): boolean {
  return pattern.test(source.split('?')[0] ?? '');
}

/** Whether an error is answered as JSON or as the error page (packages/shared/src/errors/errors.ts). Browser-safe. */
import { isImagePath } from '../url-space/images.js';

export interface RequestLike {
  url: string;
  headers: Record<string, string | string[] | undefined>;
}

/**
 * The path alone makes the answer JSON (under /api/, ending in .json, an image): whatever `Accept`
 * says, so such an answer does not vary with it.
 */
export function jsonByPath(url: string): boolean {
  const path = url.split('?')[0] ?? '';
  return path.startsWith('/api/') || path === '/api' || path.endsWith('.json') || isImagePath(path);
}

/**
 * JSON instead of the page when the client does not accept text/html but accepts JSON, or the
 * path is under /api/ or ends in .json (as Nuxt decides), or is an image (`/_ipx/`: an <img>
 * never shows a page, and the image service answers JSON to everyone).
 */
export function wantsJson(request: RequestLike): boolean {
  if (jsonByPath(request.url)) return true;
  const accept = String(request.headers.accept ?? '');
  return !accept.includes('text/html') && accept.includes('json');
}

/**
 * The headers of an error answer chosen by `wantsJson`: where `Accept` chose the body, a cache in
 * front must key on it (`Vary: Accept`) or not keep the answer; no error is kept unchecked
 * (`no-cache` for a client's error, `no-store` for the server's). The HTML and the JSON of one
 * error say the same.
 */
export function errorCacheHeaders(url: string, statusCode: number): Record<string, string> {
  const cacheControl = statusCode >= 500 ? 'no-store' : 'no-cache';
  return jsonByPath(url) ? { 'cache-control': cacheControl } : { 'cache-control': cacheControl, vary: 'accept' };
}

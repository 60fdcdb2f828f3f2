/** Whether an error is answered as JSON or as the error page (lib/errors.ts). Browser-safe. */
import { isImagePath } from './url-space/images.js';

export interface RequestLike {
  url: string;
  headers: Record<string, string | string[] | undefined>;
}

/**
 * JSON instead of the page when the client does not accept text/html but accepts JSON, or the
 * path is under /api/ or ends in .json (as Nuxt decides), or is an image (`/_ipx/`: an <img>
 * never shows a page, and the image service answers JSON to everyone).
 */
export function wantsJson(request: RequestLike): boolean {
  const path = request.url.split('?')[0] ?? '';
  if (path.startsWith('/api/') || path === '/api' || path.endsWith('.json') || isImagePath(path)) return true;
  const accept = String(request.headers.accept ?? '');
  return !accept.includes('text/html') && accept.includes('json');
}

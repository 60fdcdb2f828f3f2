/** Splits `/_ipx/{modifiers}/{source}` as @nuxt/image builds it, from the raw request URL. */
import { createError } from '@tern/shared/errors/errors';
import { isImagePath, IMAGE_PREFIX } from '@tern/shared/url-space/images';
import { IMAGE_ERRORS } from './error-codes.js';

export interface ImageRequestPath {
  /** The first segment, still encoded: `_`, `w_200`, `f_webp&q_75`. */
  modifiers: string;
  /** The decoded source: `/images/a.png` or `https://host/a.png?x=1`. */
  source: string;
  remote: boolean;
}

const PROTOCOL = /^(https?):\/\/?/i;

function decode(value: string, what: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw createError(IMAGE_ERRORS.IMAGE_MALFORMED_ENCODING(what));
  }
}

export function parseImagePath(rawUrl: string): ImageRequestPath {
  if (!isImagePath(rawUrl)) throw createError(IMAGE_ERRORS.IMAGE_NOT_AN_IMAGE_PATH());
  const rest = rawUrl.slice(IMAGE_PREFIX.length);
  const slash = rest.indexOf('/');
  if (slash <= 0) throw createError(IMAGE_ERRORS.IMAGE_PATH_INCOMPLETE());
  const modifiers = rest.slice(0, slash);
  const encodedSource = rest.slice(slash + 1);
  const decoded = decode(encodedSource, 'source');
  const match = PROTOCOL.exec(decoded);
  if (match) {
    // Proxies may collapse `//`; the query string belongs to the remote URL.
    return { modifiers, source: `${match[1]!.toLowerCase()}://${decoded.slice(match[0].length)}`, remote: true };
  }
  const path = decode(encodedSource.split('?')[0] ?? '', 'source');
  if (path === '' || path === '/') throw createError(IMAGE_ERRORS.IMAGE_SOURCE_MISSING());
  return { modifiers, source: path.startsWith('/') ? path : `/${path}`, remote: false };
}

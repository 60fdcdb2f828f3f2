/**
 * A request target in absolute form (RFC 9112 §3.2.2, `GET http://evil.example/posts/hello HTTP/1.1`)
 * as its origin form (`/posts/hello`): a server must accept the form, but the site's origin is its
 * own (PUBLIC_ORIGIN), so the authority is dropped before any route, rule, cache key or redirect
 * reads the URL, and never reaches a Location. Every other target is kept as sent.
 */

/** A scheme and `//authority` at the start of a target. */
const ABSOLUTE = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/;

export function originForm(url: string): string {
  // The common case first, at the cost of one character read: an origin-form target.
  if (url.charCodeAt(0) === 47 /* / */) return url;
  const authority = ABSOLUTE.exec(url);
  if (!authority) return url;
  const rest = url.slice(authority[0].length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}

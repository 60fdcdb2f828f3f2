/**
 * A request's target as a URL of this site. Its leading slashes are made one and it is written
 * after the origin, so nothing in it can name another host: resolved against an origin instead,
 * `/\host/x` reads as `//host/x`, another site (special schemes take `\` for `/`), and so would
 * an absolute-form target such as `http://host/x`. Dot segments and escapes are read as any URL's.
 */
export function sitePath(target: string): string {
  return `/${target.replace(/^\/+/, '')}`;
}

/** The target parsed at `origin` (`https://host`, no path): one parse; a TypeError if it is no URL. */
export function siteUrl(target: string, origin = 'http://site.invalid'): URL {
  return new URL(origin + sitePath(target));
}

/**
 * A request's target as a URL of this site. Its leading slashes are made one and it is written
 * after the origin, so nothing in it can name another host: resolved against an origin instead,
 * `/\host/x` reads as `//host/x`, another site (special schemes take `\` for `/`), and so would
 * an absolute-form target such as `http://host/x`. Dot segments and escapes are read as any URL's.
 */
export function sitePath(target: string): string {
  return `/${target.replace(/^\/+/, '')}`;
}

/** The target's path and query as a URL of this site reads them (at a placeholder origin). */
export function siteUrl(target: string): URL {
  return new URL(`http://site.invalid${sitePath(target)}`);
}

/**
 * Icon data as the <Icon> component draws it, shared by the build-time bundle, the server and
 * the client loader. Browser-safe.
 */

/** One icon ready to draw: the inner SVG markup and its viewBox. */
export interface IconSvg {
  body: string;
  viewBox: string;
  /** width / height of the viewBox, so non-square icons keep their shape. */
  aspect: number;
}

export type IconBundle = Readonly<Record<string, IconSvg>>;

/** Iconify's rule for collection and icon names. */
export const ICON_NAME_PART = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** Splits `collection:name`; null when either part breaks Iconify's naming rule. */
export function parseIconName(fullName: string): { collection: string; name: string } | null {
  const colon = fullName.indexOf(':');
  if (colon === -1) return null;
  const collection = fullName.slice(0, colon);
  const name = fullName.slice(colon + 1);
  if (!ICON_NAME_PART.test(collection) || !ICON_NAME_PART.test(name)) return null;
  return { collection, name };
}

/**
 * Prefixes the ids inside an SVG body (and the references to them) so two copies of one icon on a
 * page do not collide. Deterministic, so the server and hydration produce the same markup.
 */
export function scopeSvgIds(body: string, scope: string): string {
  const ids = [...body.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1] ?? '');
  if (ids.length === 0) return body;
  const safeScope = scope.replace(/[^a-zA-Z0-9_-]/g, '');
  let out = body;
  for (const id of new Set(ids)) {
    const escaped = id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    out = out.replace(new RegExp(`(\\sid="|#)${escaped}(?=["')])`, 'g'), `$1${safeScope}-${id}`);
  }
  return out;
}

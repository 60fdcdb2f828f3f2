/**
 * Where the client build is served. Nuxt's `/_nuxt/` is kept on purpose (existing CDN rules keep
 * working); ASSETS_PREFIX changes it, and must be the same at build time (Vite's `base`) and at
 * run time (the static route and the links). Browser-safe: no Node imports.
 */
export const DEFAULT_ASSETS_PREFIX = '/_nuxt/';

/** `/_nuxt`, `_nuxt/`, `/_nuxt/` all become `/_nuxt/`; anything but a plain path is refused. */
export function normalizeAssetsPrefix(value: string | undefined): string {
  if (value === undefined || value === '') return DEFAULT_ASSETS_PREFIX;
  const trimmed = value.replace(/^\/+|\/+$/g, '');
  const segments = trimmed.split('/');
  if (segments.some((s) => !/^[A-Za-z0-9._~-]+$/.test(s) || s === '.' || s === '..')) {
    throw new Error(`ASSETS_PREFIX: expected a plain path such as /_nuxt/ (got ${JSON.stringify(value)})`);
  }
  return `/${trimmed}/`;
}

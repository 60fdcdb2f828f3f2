/**
 * Payloads: the loader data of a page, inlined in its HTML for hydration and served at
 * `{route}/_payload.json?{buildId}` for client navigations. Browser-safe.
 */
import type { ErrorBody } from '@tern/shared/errors/errors';
import { payloadPath } from '@tern/shared/url-space/payload';

export { pagePathOfPayload, payloadPath } from '@tern/shared/url-space/payload';

/** The id of the inline `<script type="application/json">` that carries the first payload. */
export const PAYLOAD_ELEMENT_ID = '__PAYLOAD__';

export interface Payload {
  buildId: string;
  /** The page's path (no query). */
  path: string;
  /** Loader data by route id. */
  data: Record<string, unknown>;
  /** Errors by route id (the route whose boundary shows them); null when the page rendered. */
  errors: Record<string, ErrorBody> | null;
}

/** The payload URL with the build id as its first query key (Nuxt's `?{buildId}`), the page's query after. */
export function payloadUrl(pathname: string, search: string, buildId: string): string {
  const rest = search.replace(/^\?/, '');
  return `${payloadPath(pathname)}?${encodeURIComponent(buildId)}${rest ? `&${rest}` : ''}`;
}

/** The page's own query from a payload query: the leading bare build id is dropped. */
export function pageSearchOfPayload(search: string): string {
  const parts = search.replace(/^\?/, '').split('&').filter(Boolean);
  if (parts[0] !== undefined && !parts[0].includes('=')) parts.shift();
  return parts.length ? `?${parts.join('&')}` : '';
}

const SCRIPT_UNSAFE: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

const UNSAFE = /[<>&\u2028\u2029]/;
const EVERY_UNSAFE = /[<>&\u2028\u2029]/g;

/**
 * JSON that is safe inside a `<script>` element: no `</script>`, `<!--` or line separators survive.
 * Most of what a page inlines has none of them (keys, numbers, titles): a test that finds none
 * costs half of a replace that finds none. `replacer` is JSON.stringify's.
 */
export function toScriptSafeJson(value: unknown, replacer?: (this: unknown, key: string, value: unknown) => unknown): string {
  const json = JSON.stringify(value, replacer) as string | undefined;
  if (json === undefined) throw new TypeError(`${typeof value} has no JSON`);
  return UNSAFE.test(json) ? json.replace(EVERY_UNSAFE, (c) => SCRIPT_UNSAFE[c]!) : json;
}

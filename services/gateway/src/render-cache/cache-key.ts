/**
 * What a cached page is keyed by: the build, the canonical path (lib/canonical-path.ts; other
 * spellings were redirected before), the declared query parameters and the variant. The variant
 * holds only what changes the answer: the colour class the renderer puts on <html> (from the
 * colour-mode cookie), whether the visitor is a crawler (the renderer waits for all data and
 * tells the app), the public origin the page names, JSON or HTML errors, and what the rule
 * `varies` by.
 */
import { isCrawlerAgent } from '#lib/crawler.js';
import type { IncomingHttpHeaders } from 'node:http';
import { COLOR_MODE_STORAGE_KEY } from '#lib/constants.js';

/** The cookie the colour-mode script writes: `<preference>.<resolved>`, e.g. `system.dark`. */
const COLOR_MODE_COOKIE = COLOR_MODE_STORAGE_KEY;

export function readCookie(cookieHeader: string | undefined, name: string): string | undefined {
  if (!cookieHeader) return undefined;
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * The colour a page is rendered in for this cookie: an explicit light or dark preference, or ''
 * (no cookie, or `system`). For `system` the head script puts the class on before the first
 * paint, so the page is rendered without one and every first-time visitor shares one entry.
 */
export function colorModeClass(cookieHeader: string | undefined): 'light' | 'dark' | '' {
  const [preference] = (readCookie(cookieHeader, COLOR_MODE_COOKIE) ?? '').split('.');
  return preference === 'light' || preference === 'dark' ? preference : '';
}

/**
 * The query as the key and the render see it: only the parameters the route declares it reads
 * (`cache: { query: [...] }`), sorted; every other one is dropped from both. A client can then
 * make new entries only by values of a declared parameter, which the byte budget of each store
 * evicts like any other entry: nothing a client sends can stop a page from being cached.
 */
export function declaredQuery(search: string, declared: readonly string[] | undefined): string {
  if (!declared || declared.length === 0 || !search) return '';
  const kept: [string, string][] = [];
  for (const [name, value] of new URLSearchParams(search)) if (declared.includes(name)) kept.push([name, value]);
  kept.sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
  return new URLSearchParams(kept).toString();
}

/**
 * `origin` is the one the renderer will name in the page (canonical link, app config): the
 * configured public origin, never the request's Host. `json` is whether an error would be
 * answered as JSON (lib/errors.ts wantsJson, the renderer's own test): a 404 body varies with
 * `Accept`, so JSON and HTML clients never share an entry.
 */
export function variantOf(headers: IncomingHttpHeaders, varies: readonly string[], origin: string, json: boolean): string {
  const cookie = headers.cookie;
  const parts = [
    `o=${encodeURIComponent(origin)}`,
    `c=${colorModeClass(cookie)}`,
    isCrawlerAgent(headers['user-agent']) ? 'bot' : 'person',
    json ? 'json' : 'html',
  ];
  for (const name of varies) {
    const value = name.startsWith('cookie:') ? readCookie(cookie, name.slice(7)) : headers[name];
    parts.push(`${name}=${encodeURIComponent(String(value ?? ''))}`);
  }
  return parts.join('&');
}

/** The cookies the renderer may see on a cached render: only those that are part of the key. */
export function keyedCookies(cookieHeader: string | undefined, varies: readonly string[]): string | undefined {
  const mode = colorModeClass(cookieHeader);
  const colour = mode ? [`${COLOR_MODE_COOKIE}=${mode}.${mode}`] : [];
  const names = [...varies.filter((name) => name.startsWith('cookie:')).map((name) => name.slice(7))];
  const kept = names.flatMap((name) => {
    const value = readCookie(cookieHeader, name);
    return value === undefined ? [] : [`${name}=${value}`];
  });
  const all = [...colour, ...kept];
  return all.length > 0 ? all.join('; ') : undefined;
}

export interface CacheKey {
  /** Readable and purgeable by path: `{buildId}:{path}?{query}#{variant}`. */
  key: string;
  path: string;
  query: string;
}

export function cacheKey(buildId: string, path: string, query: string, variant: string): CacheKey {
  return { key: `${buildId}:${path}?${query}#${variant}`, path, query };
}

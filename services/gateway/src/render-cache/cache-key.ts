/**
 * What a cached page is keyed by: the build, the canonical path (packages/shared/src/http/canonical-path.ts; other
 * spellings were redirected before), the declared query parameters and the variant. The variant
 * holds only what changes the answer: what the build declares every page varies by (its
 * `pageVaries`: the renderer's colour class, from a cookie), whether the visitor is a crawler (the
 * renderer waits for all data and tells the app), the public origin the page names, JSON or HTML
 * errors, and what the rule `varies` by.
 */
import { isCrawlerAgent } from '@tern/shared/http/crawler';
import type { IncomingHttpHeaders } from 'node:http';
import type { PageVary } from '@tern/shared/build-store/types';

export function readCookie(cookieHeader: string | undefined, name: string): string | undefined {
  if (!cookieHeader) return undefined;
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * The value of a declared cookie that changes the page: up to its first `.` (`dark.light` is the
 * preference `dark`), when the build lists it; '' for anything else, so every visitor without a
 * listed value (a first visit, `system`) shares one entry.
 */
export function pageVaryValue(cookieHeader: string | undefined, vary: PageVary): string {
  const raw = readCookie(cookieHeader, vary.cookie);
  if (raw === undefined) return '';
  const dot = raw.indexOf('.');
  const value = dot === -1 ? raw : raw.slice(0, dot);
  return vary.values.includes(value) ? value : '';
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
 * answered as JSON (packages/shared/src/errors/errors.ts wantsJson, the renderer's own test): a 404 body varies with
 * `Accept`, so JSON and HTML clients never share an entry. `pageVaries` is the build's.
 */
export function variantOf(
  headers: IncomingHttpHeaders,
  varies: readonly string[],
  pageVaries: readonly PageVary[],
  origin: string,
  json: boolean,
): string {
  const cookie = headers.cookie;
  const parts = [`o=${encodeURIComponent(origin)}`];
  for (const vary of pageVaries) parts.push(`${vary.cookie}=${pageVaryValue(cookie, vary)}`);
  parts.push(isCrawlerAgent(headers['user-agent']) ? 'bot' : 'person', json ? 'json' : 'html');
  for (const name of varies) {
    const value = name.startsWith('cookie:') ? readCookie(cookie, name.slice(7)) : headers[name];
    parts.push(`${name}=${encodeURIComponent(String(value ?? ''))}`);
  }
  return parts.join('&');
}

/** The cookies the renderer may see on a cached render: only those that are part of the key, as the key has them. */
export function keyedCookies(
  cookieHeader: string | undefined,
  varies: readonly string[],
  pageVaries: readonly PageVary[],
): string | undefined {
  const declared = pageVaries.flatMap((vary) => {
    const value = pageVaryValue(cookieHeader, vary);
    return value ? [`${vary.cookie}=${value}`] : [];
  });
  const names = varies.filter((name) => name.startsWith('cookie:')).map((name) => name.slice(7));
  const kept = names.flatMap((name) => {
    const value = readCookie(cookieHeader, name);
    return value === undefined ? [] : [`${name}=${value}`];
  });
  const all = [...declared, ...kept];
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

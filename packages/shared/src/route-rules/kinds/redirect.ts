/**
 * `redirect`: answered before any upstream is asked (at the gateway, and on client navigations by
 * the browser runtime), with a Location built here. A `/**` target gets the rest of the path.
 */
import { RouteRuleError } from '../route-rule-error.js';
import type { RouteRuleKind } from '../kind.js';

export interface RedirectRule {
  to: string;
  statusCode: number;
}

/** What the site config declares: a path or an http(s) URL; `{ to, statusCode }` to choose the status (default 307). */
export type RedirectInput = string | { to: string; statusCode?: number };

export const DEFAULT_REDIRECT_STATUS = 307;
export const REDIRECT_STATUSES = [301, 302, 303, 307, 308] as const;

// Any control character or whitespace inside a target would let a browser read it differently.
const UNSAFE_CHARS = /[\u0000-\u0020\u007f\\]/;

/** A redirect target is a path (never `//host`) or an absolute http(s) URL. */
export function isValidRedirectTarget(to: string): boolean {
  if (to.length === 0 || UNSAFE_CHARS.test(to)) return false;
  if (to.startsWith('/')) return !to.startsWith('//');
  if (!/^https?:\/\//i.test(to)) return false;
  try {
    return new URL(to).host.length > 0;
  } catch {
    return false;
  }
}

export function isExternalTarget(to: string): boolean {
  return /^https?:\/\//i.test(to);
}

function normalizeRedirect(pattern: string, input: RedirectInput | undefined): RedirectRule {
  const given = typeof input === 'string' ? { to: input } : input;
  if (!given || typeof given.to !== 'string') throw new RouteRuleError(pattern, 'redirect needs a target ("to")');
  const statusCode = given.statusCode ?? DEFAULT_REDIRECT_STATUS;
  if (!(REDIRECT_STATUSES as readonly number[]).includes(statusCode)) {
    throw new RouteRuleError(pattern, `redirect status ${statusCode} is not one of ${REDIRECT_STATUSES.join(', ')}`);
  }
  if (!isValidRedirectTarget(given.to)) {
    throw new RouteRuleError(pattern, `redirect target ${JSON.stringify(given.to)} is not a path or an http(s) URL`);
  }
  const wildcardTarget = given.to.endsWith('/**');
  if (given.to.slice(0, wildcardTarget ? -3 : undefined).includes('*')) {
    throw new RouteRuleError(pattern, 'a redirect target may only end in /**');
  }
  if (wildcardTarget && !pattern.endsWith('/**')) {
    throw new RouteRuleError(pattern, 'a redirect target ending in /** needs a pattern ending in /**');
  }
  return { to: given.to, statusCode };
}

export const redirectKind: RouteRuleKind<RedirectRule, { redirect?: RedirectInput }> = {
  inputs: ['redirect'],
  normalize: (pattern, rule) => (rule.redirect === undefined ? undefined : normalizeRedirect(pattern, rule.redirect)),
  merge(merged, name, value, match) {
    merged[name] = value;
    // Where the winning redirect came from: a `/**` one carries the rest of the path over.
    if (match.wildcard) merged.redirectRest = match.rest;
    else delete merged.redirectRest;
  },
};

/** `.` and `..` as a browser reads them, also percent-encoded (`%2e%2E`, `.%2e`). */
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/**
 * The rest of the path as segments that can never change the origin nor climb out of the
 * target's prefix: empty segments (from `//`), backslashes and their encoded forms become
 * separators, dot segments (encoded or not) are dropped, and any character a browser would
 * strip or reinterpret is percent-encoded.
 */
function safeRest(rest: string): string {
  return rest
    .replace(/%(2f|5c)/gi, '/')
    .split(/[/\\]+/)
    .filter((segment) => segment.length > 0 && !DOT_SEGMENT.test(segment))
    .map((segment) => segment.replace(/[\u0000-\u0020\u007f]/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0').toUpperCase()}`))
    .join('/');
}

/** Adds the request's query to the target's; request keys replace the target's (as Nitro does). */
function mergeQuery(target: string, query: string): string {
  if (!query) return target;
  const hashAt = target.indexOf('#');
  const hash = hashAt >= 0 ? target.slice(hashAt) : '';
  const base = hashAt >= 0 ? target.slice(0, hashAt) : target;
  const [path, targetQuery = ''] = base.split(/\?(.*)/s) as [string, string?];
  const incoming = query.split('&').filter(Boolean);
  const keys = new Set(incoming.map((part) => part.split('=')[0]));
  const kept = targetQuery.split('&').filter((part) => part && !keys.has(part.split('=')[0]));
  return `${path}?${[...kept, ...incoming].join('&')}${hash}`;
}

/**
 * The Location of a redirect for `url` (path and query as the request gave them). A `/**`
 * target gets the rest of the path; the query is kept; a same-site Location always starts
 * with exactly one `/`.
 */
export function buildRedirectLocation(redirect: RedirectRule, url: string, rest = ''): string {
  const queryAt = url.indexOf('?');
  const query = queryAt >= 0 ? url.slice(queryAt + 1) : '';
  let target = redirect.to;
  if (target.endsWith('/**')) {
    const tail = safeRest(rest);
    target = `${target.slice(0, -3)}/${tail}`;
    if (!tail && target.length > 1) target = target.slice(0, -1);
  }
  const location = mergeQuery(target, query);
  if (isExternalTarget(location)) return location;
  // As the browser will resolve it: a carried-over rest must stay below the target's prefix.
  if (redirect.to.endsWith('/**')) {
    const prefix = redirect.to.slice(0, -3);
    const resolved = new URL(location, 'http://site.invalid').pathname;
    if (resolved !== (prefix || '/') && !resolved.startsWith(`${prefix}/`)) return prefix || '/';
  }
  // Belt and braces: nothing may leave a same-site redirect looking like `//host` or `/\host`.
  return /^\/(?![/\\])/.test(location) ? location : `/${location.replace(/^[/\\]+/, '')}`;
}

/**
 * Route rules: validated at build time, matched with a radix tree (rou3) at request time, and
 * turned into a redirect Location. Browser-safe: the client runtime applies the same redirects.
 */
import { addRoute, createRouter, findAllRoutes, type RouterContext } from 'rou3';
import type { CacheRule, CompiledRouteRules, RedirectRule, RouteRules } from './route-rule-types.js';
import { RouteRuleError } from './route-rule-error.js';
import { normalizeCacheRule, type CacheRuleInput } from './route-rules-cache.js';

export { RouteRuleError };

export type { CacheRule, CompiledRouteRules, RedirectRule, RouteRules };

/** What the site config declares for one pattern. */
export interface RouteRuleInput {
  /** A path or an http(s) URL; `{ to, statusCode }` to choose the status (default 307). */
  redirect?: string | { to: string; statusCode?: number };
  headers?: Record<string, string>;
  /** `false` adds `x-robots-tag: noindex`. */
  robots?: boolean;
  /** Cache at the gateway, serve stale and refresh behind it after N seconds (`true`: until the next build). */
  swr?: number | boolean;
  /** The same as `swr` here: every replica shares the cache. `false` opts a sub-path out. */
  isr?: number | boolean;
  /** The general form: Nitro's `{ maxAge, staleMaxAge, varies }`; `false` opts out. */
  cache?: CacheRuleInput | false;
  /** Render at build time (and the internal pages it links to), served as files. */
  prerender?: boolean;
  /** `false`: serve the client-rendered shell (Nuxt's per-route SPA mode). */
  ssr?: boolean;
}

export type RouteRulesInput = Record<string, RouteRuleInput>;

export const DEFAULT_REDIRECT_STATUS = 307;
export const REDIRECT_STATUSES = [301, 302, 303, 307, 308] as const;

const HEADER_NAME = /^[!#$%&'*+.^`|~\w-]+$/;
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

function normalizeRedirect(pattern: string, input: RouteRuleInput['redirect']): RedirectRule {
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

function normalizeHeaders(pattern: string, headers: unknown): Record<string, string> {
  if (!headers || typeof headers !== 'object') throw new RouteRuleError(pattern, 'headers must be an object');
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!HEADER_NAME.test(name)) throw new RouteRuleError(pattern, `invalid header name ${JSON.stringify(name)}`);
    if (typeof value !== 'string' || /[\r\n\u0000]/.test(value)) {
      throw new RouteRuleError(pattern, `header ${name} needs a single-line string value`);
    }
    out[name.toLowerCase()] = value;
  }
  return out;
}

/** Build time: checks every rule and fills in defaults. Throws a RouteRuleError naming the rule. */
export function normalizeRouteRules(input: RouteRulesInput): CompiledRouteRules {
  const out: CompiledRouteRules = {};
  for (const [pattern, rule] of Object.entries(input)) {
    if (!pattern.startsWith('/')) throw new RouteRuleError(pattern, 'a pattern must start with /');
    if (!rule || typeof rule !== 'object') throw new RouteRuleError(pattern, 'rules must be an object');
    const known = new Set(['redirect', 'headers', 'robots', 'swr', 'isr', 'cache', 'prerender', 'ssr']);
    const unknown = Object.keys(rule).filter((key) => !known.has(key));
    if (unknown.length > 0) throw new RouteRuleError(pattern, `unknown key ${unknown.join(', ')}`);
    const compiled: RouteRules = {};
    if (rule.redirect !== undefined) compiled.redirect = normalizeRedirect(pattern, rule.redirect);
    if (rule.headers !== undefined) compiled.headers = normalizeHeaders(pattern, rule.headers);
    if (rule.robots !== undefined) {
      if (typeof rule.robots !== 'boolean') throw new RouteRuleError(pattern, 'robots must be true or false');
      compiled.robots = rule.robots;
    }
    const cache = normalizeCacheRule(pattern, rule);
    if (cache !== undefined) compiled.cache = cache;
    for (const key of ['prerender', 'ssr'] as const) {
      if (rule[key] === undefined) continue;
      if (typeof rule[key] !== 'boolean') throw new RouteRuleError(pattern, `${key} must be true or false`);
      compiled[key] = rule[key];
    }
    if (compiled.prerender && (pattern.includes('*') || pattern.includes(':'))) {
      throw new RouteRuleError(pattern, 'prerender: true needs a plain path (the crawler finds the pages it links to)');
    }
    out[pattern] = compiled;
  }
  createRouteRulesMatcher(out); // a pattern rou3 cannot read fails the build, named
  return out;
}

/** The merged rules for one path, and where the winning redirect came from. */
export interface MatchedRouteRules extends RouteRules {
  /** For a `/**` redirect: the part of the request path after the rule's prefix. */
  redirectRest?: string;
}

export interface RouteRulesMatcher {
  match(path: string): MatchedRouteRules;
  readonly size: number;
}

interface Entry {
  pattern: string;
  rules: RouteRules;
  /** Nuxt's order: 0 wildcard, 1 dynamic, 2 exact; wildcards then by prefix length. */
  kind: number;
  prefixLength: number;
}

/** `*` means one segment here (as in Nuxt); rou3 reads a bare `*` as the rest of the path. */
function toRou3Pattern(pattern: string): string {
  let n = 0;
  return pattern
    .split('/')
    .map((segment) => (segment === '*' ? `:_s${n++}` : segment))
    .join('/');
}

function entryFor(pattern: string, rules: RouteRules): Entry {
  const wildcard = pattern.endsWith('/**') || pattern === '/**';
  const dynamic = /(^|\/)(:|\*)/.test(pattern);
  const kind = wildcard ? 0 : dynamic ? 1 : 2;
  return { pattern, rules, kind, prefixLength: wildcard ? pattern.length - 3 : pattern.length };
}

function bySpecificity(a: { entry: Entry; order: number }, b: { entry: Entry; order: number }): number {
  return a.entry.kind - b.entry.kind || a.entry.prefixLength - b.entry.prefixLength || a.order - b.order;
}

/** Request time: a radix matcher, so 10 rules and 10,000 rules cost the same per lookup. */
export function createRouteRulesMatcher(compiled: CompiledRouteRules): RouteRulesMatcher {
  const router: RouterContext<Entry> = createRouter<Entry>();
  for (const [pattern, rules] of Object.entries(compiled)) {
    try {
      addRoute(router, '', toRou3Pattern(pattern), entryFor(pattern, rules));
    } catch (error) {
      throw new RouteRuleError(pattern, (error as Error).message);
    }
  }
  return {
    size: Object.keys(compiled).length,
    match(path) {
      const pathname = path.split('?')[0] || '/';
      const found = findAllRoutes(router, '', pathname, { normalize: true });
      const ordered = found.map((m, order) => ({ entry: m.data, order, params: m.params })).sort(bySpecificity);
      const merged: MatchedRouteRules = {};
      for (const { entry, params } of ordered) {
        const { redirect, headers, robots, cache, prerender, ssr } = entry.rules;
        if (headers) merged.headers = { ...merged.headers, ...headers };
        if (robots !== undefined) merged.robots = robots;
        if (cache !== undefined) merged.cache = cache;
        if (prerender !== undefined) merged.prerender = prerender;
        if (ssr !== undefined) merged.ssr = ssr;
        if (redirect) {
          merged.redirect = redirect;
          if (entry.kind === 0) merged.redirectRest = params?.['0'] ?? '';
          else delete merged.redirectRest;
        }
      }
      return merged;
    },
  };
}

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

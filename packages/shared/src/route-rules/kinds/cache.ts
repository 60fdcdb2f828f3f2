/**
 * The cache route rules (`swr`, `isr`, `cache`) normalised into one `CacheRule`. Unlike Nitro,
 * every `false` opts out (Nitro's `swr: false` leaves an inherited cache on), and `varies` may
 * only name what can safely split the cache: headers, or single cookies as `cookie:name`.
 */
import { RouteRuleError } from '../route-rule-error.js';
import type { RouteRuleKind } from '../kind.js';

/**
 * A cached route, Nitro's cache options once normalised (`swr`, `isr` and `cache` all become
 * this). Answered by the gateway from its memory and the shared store, anonymous requests only.
 */
export interface CacheRule {
  /** Seconds an entry is fresh; null: until the next build. */
  maxAge: number | null;
  /** Seconds a stale entry may still be served while one request refreshes it; null: no limit. */
  staleMaxAge: number | null;
  /** Request headers (`accept-language`) or cookies (`cookie:name`) that change the page. */
  varies: string[];
  /**
   * The query parameters the route reads: kept in the key and passed to the render. Every other
   * parameter is dropped from both (absent: the page reads none).
   */
  query?: string[];
}

export interface CacheRuleInput {
  /** Seconds fresh; Nitro's default is 1. */
  maxAge?: number;
  /** Seconds a stale entry may be served while refreshing; -1 (Nitro's value): no limit; 0: never stale. */
  staleMaxAge?: number;
  /** Nitro's switch for stale answers; `false` is `staleMaxAge: 0`. */
  swr?: boolean;
  varies?: string[];
  /** The query parameters the page reads; the others never reach the key nor the render. */
  query?: string[];
}

/** What the site config declares: `swr`, `isr` (the same here: every replica shares the cache) or the general `cache`. */
export interface CacheInput {
  /** Cache at the gateway, serve stale and refresh behind it after N seconds (`true`: until the next build). */
  swr?: number | boolean;
  /** The same as `swr` here: every replica shares the cache. `false` opts a sub-path out. */
  isr?: number | boolean;
  /** The general form: Nitro's `{ maxAge, staleMaxAge, varies }`; `false` opts out. */
  cache?: CacheRuleInput | false;
}

const HEADER_NAME = /^[a-z0-9!#$%&'*+.^`|~_-]+$/;
const COOKIE_NAME = /^cookie:[!#$%&'*+.^`|~\w-]+$/;
// These carry who the visitor is: a cache split by them is a per-visitor cache, or a leak.
const NEVER_VARIES = new Set(['cookie', 'authorization', 'proxy-authorization']);

function seconds(pattern: string, name: string, value: unknown, allowMinusOne = false): number {
  if (typeof value === 'number' && Number.isInteger(value) && (value >= 0 || (allowMinusOne && value === -1))) return value;
  throw new RouteRuleError(pattern, `${name} must be a whole number of seconds${allowMinusOne ? ' (or -1)' : ''}`);
}

function shorthand(pattern: string, name: string, value: number | boolean): CacheRule | false {
  if (value === false) return false;
  if (value === true) return { maxAge: null, staleMaxAge: null, varies: [] };
  const maxAge = seconds(pattern, name, value);
  if (maxAge === 0) throw new RouteRuleError(pattern, `${name}: 0 caches nothing; use ${name}: false`);
  return { maxAge, staleMaxAge: null, varies: [] };
}

function varies(pattern: string, value: unknown): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new RouteRuleError(pattern, 'cache.varies must be a list of header names or cookie:name');
  return value.map((item: unknown) => {
    const name = typeof item === 'string' ? item.toLowerCase() : '';
    if (NEVER_VARIES.has(name)) throw new RouteRuleError(pattern, `cache.varies may not name ${name} (one entry per visitor)`);
    if (!HEADER_NAME.test(name) && !COOKIE_NAME.test(name))
      throw new RouteRuleError(pattern, `cache.varies: ${JSON.stringify(item)} is not a header name or cookie:name`);
    return name;
  });
}

const QUERY_NAME = /^[\w.~-]{1,64}$/;

function queryNames(pattern: string, value: unknown): string[] {
  if (!Array.isArray(value) || !value.every((name) => typeof name === 'string' && QUERY_NAME.test(name)))
    throw new RouteRuleError(pattern, 'cache.query must be a list of query parameter names');
  return [...new Set(value as string[])];
}

function general(pattern: string, input: CacheRuleInput | false): CacheRule | false {
  if (input === false) return false;
  if (!input || typeof input !== 'object') throw new RouteRuleError(pattern, 'cache must be an object or false');
  const unknown = Object.keys(input).filter((key) => !['maxAge', 'staleMaxAge', 'swr', 'varies', 'query'].includes(key));
  if (unknown.length > 0) throw new RouteRuleError(pattern, `unknown cache option ${unknown.join(', ')}`);
  const maxAge = input.maxAge === undefined ? 1 : seconds(pattern, 'cache.maxAge', input.maxAge);
  const stale = input.staleMaxAge === undefined ? -1 : seconds(pattern, 'cache.staleMaxAge', input.staleMaxAge, true);
  if (input.swr !== undefined && typeof input.swr !== 'boolean') throw new RouteRuleError(pattern, 'cache.swr must be true or false');
  const staleMaxAge = input.swr === false ? 0 : stale === -1 ? null : stale;
  const rule: CacheRule = { maxAge, staleMaxAge, varies: varies(pattern, input.varies) };
  if (input.query !== undefined) rule.query = queryNames(pattern, input.query);
  return rule;
}

export function normalizeCacheRule(pattern: string, rule: CacheInput): CacheRule | false | undefined {
  const given = (['swr', 'isr', 'cache'] as const).filter((key) => rule[key] !== undefined);
  if (given.length > 1) throw new RouteRuleError(pattern, `use one of swr, isr and cache, not ${given.join(' and ')}`);
  const kind = given[0];
  if (kind === undefined) return undefined;
  if (kind === 'cache') return general(pattern, rule.cache!);
  const value = rule[kind];
  if (typeof value !== 'number' && typeof value !== 'boolean')
    throw new RouteRuleError(pattern, `${kind} must be a number of seconds, true or false`);
  return shorthand(pattern, kind, value);
}

/** Cached at the gateway (render-cache/); `false` opts a sub-path out of a parent's cache. */
export const cacheKind: RouteRuleKind<CacheRule | false, CacheInput> = {
  inputs: ['swr', 'isr', 'cache'],
  normalize: (pattern, rule) => normalizeCacheRule(pattern, rule),
};

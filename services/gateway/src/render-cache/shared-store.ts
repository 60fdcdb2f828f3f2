/**
 * The cache every gateway replica shares: Redis when REDIS_URL is set, files under dist/ when
 * embedded. One interface, one contract suite (shared-store.contract.ts). Failures never throw
 * out of get/set/lock: the caller goes on without the store (memory, or the renderer).
 */
import type { CacheEntry } from './cache-entry.js';

export interface SharedCacheStore {
  readonly kind: 'redis' | 'file';
  /** The entry, or null when there is none, it has expired, or the store did not answer in time. */
  get(key: string): Promise<CacheEntry | null>;
  /** Stores the entry for `ttlMs` (best effort). */
  set(entry: CacheEntry, ttlMs: number): Promise<void>;
  /** Takes the render lock of `key` for `ttlMs`: true for the one caller that may render it. */
  lock(key: string, ttlMs: number): Promise<boolean>;
  unlock(key: string): Promise<void>;
  /** Deletes the entries whose path matches `pattern` (`*` any characters); how many went. */
  purge(pattern: string): Promise<number>;
  /** Calls `listener` when any process purged entries, so memory copies go too. */
  onPurge(listener: () => void): () => void;
  /** True when the store answers now. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/** An entry that lives until the next build still expires: old builds' entries must not pile up. */
export const UNTIL_NEXT_BUILD_TTL_MS = 7 * 24 * 3600 * 1000;

/** How long the store keeps an entry: until it may no longer be served, stale included. */
export function ttlOf(entry: CacheEntry, now = Date.now()): number {
  const until = entry.staleUntil ?? (entry.freshUntil === null ? null : entry.freshUntil + UNTIL_NEXT_BUILD_TTL_MS);
  return until === null ? UNTIL_NEXT_BUILD_TTL_MS : Math.max(1000, until - now);
}

/** The path part of a cache key (`{build}:{path}?{query}#{variant}`). */
export function pathOfKey(key: string): string {
  const afterBuild = key.slice(key.indexOf(':') + 1);
  return afterBuild.slice(0, afterBuild.indexOf('?'));
}

/** `*` matches any run of characters; everything else is literal. */
export function pathPattern(pattern: string): RegExp {
  return new RegExp(
    `^${pattern
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
}

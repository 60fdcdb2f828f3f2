/**
 * The render cache's storage tiers: this gateway's memory (an LRU bounded by bytes) in front of
 * the store every gateway shares (Redis or files, shared-store.ts). A read looks in memory and,
 * when it holds nothing fresh, in the shared store; a write goes to memory at once and to the
 * shared store behind the answer.
 */
import { Lru } from '@tern/shared/http-cache/lru';
import { entrySize, isFresh, type CacheEntry } from './cache-entry.js';
import { ttlOf, type SharedCacheStore } from './shared-store.js';

export interface CacheTiers {
  /** The shared store itself: its locks coordinate fills across gateways (cache-fills.ts). */
  readonly shared: SharedCacheStore;
  /** A fresh entry in memory, with no wait; undefined otherwise. */
  freshInMemory(key: string, at: number): CacheEntry | undefined;
  /** The entry in memory, fresh or not, with no wait (what a page is, not what it says now). */
  inMemory(key: string): CacheEntry | undefined;
  /** The newest entry of either tier (fresh or not), or null. */
  lookup(key: string, at: number): Promise<CacheEntry | null>;
  /** The shared store's entry, kept in memory too; null when it has none. */
  fromShared(key: string): Promise<CacheEntry | null>;
  /**
   * Keeps `entry` in memory, and in the shared store when `shared` and a 200; resolves once the
   * shared copy is written (or failed: the store's errors never reach a visitor).
   */
  remember(entry: CacheEntry, shared: boolean): Promise<unknown>;
  memoryBytes(): number;
  /** Settles once the shared writes under way have. */
  idle(): Promise<unknown>;
  /** Stops following purges and waits for the writes under way. */
  close(): Promise<void>;
}

export function createCacheTiers(shared: SharedCacheStore, memoryBytes: number, now: () => number): CacheTiers {
  const memory = new Lru<CacheEntry>({ maxEntries: 20_000, maxSize: memoryBytes });
  const stopPurge = shared.onPurge(() => memory.clear());
  // Shared writes finish after the answer; closing waits for them, so nothing writes into a store
  // (or a folder) that is being taken away.
  const writes = new Set<Promise<unknown>>();
  const keep = (entry: CacheEntry) => memory.set(entry.key, entry, entrySize(entry));

  return {
    shared,
    freshInMemory(key, at) {
      const entry = memory.get(key);
      return entry && isFresh(entry, at) ? entry : undefined;
    },
    inMemory: (key) => memory.get(key),
    async lookup(key, at) {
      const local = memory.get(key);
      if (local && isFresh(local, at)) return local;
      // Stale or missing here: another gateway may have refreshed it already.
      const found = await shared.get(key);
      if (found && (!local || found.storedAt > local.storedAt)) {
        keep(found);
        return found;
      }
      return local ?? null;
    },
    async fromShared(key) {
      const found = await shared.get(key);
      if (found) keep(found);
      return found;
    },
    remember(entry, toShared) {
      keep(entry);
      // A 404 stays in this gateway's memory only: random missing paths must not fill the shared store.
      if (!toShared || entry.status !== 200) return Promise.resolve();
      const write: Promise<unknown> = shared
        .set(entry, ttlOf(entry, now()))
        .catch(() => undefined)
        .finally(() => writes.delete(write));
      writes.add(write);
      return write;
    },
    memoryBytes: () => memory.totalSize,
    idle: () => Promise.all(writes),
    async close() {
      stopPurge();
      await Promise.all(writes);
    },
  };
}

/**
 * The shared cache in Redis. Its own client with short timeouts and no offline queue: while
 * Redis is away or slow every command fails within CACHE_STORE_TIMEOUT_MS and the gateway goes
 * on with its memory and the renderer. Keys: `{prefix}cache:{build}:{path}?{query}#{variant}`,
 * each with a TTL; render locks `{prefix}cache-lock:…` with SET NX PX.
 */
import { Redis } from 'ioredis';
import { decodeEntry, encodeEntry } from './cache-entry.js';
import type { SharedCacheStore } from './shared-store.js';

/** `queueWhileConnecting`: for one-off tools (the purge command), which must wait for the connection. */
export function createRedisCacheStore(url: string, prefix: string, timeoutMs: number, queueWhileConnecting = false): SharedCacheStore {
  const redis = new Redis(url, {
    commandTimeout: timeoutMs,
    connectTimeout: 2000,
    maxRetriesPerRequest: queueWhileConnecting ? 1 : 0,
    enableOfflineQueue: queueWhileConnecting,
    retryStrategy: (times) => Math.min(times * 200, 1000),
  });
  redis.on('error', () => undefined);
  const entryKey = (key: string) => `${prefix}cache:${key}`;
  const lockKey = (key: string) => `${prefix}cache-lock:${key}`;
  const channel = `${prefix}cache:purged`;
  const subscribers = new Set<Redis>();
  const quiet = <T>(work: Promise<T>, fallback: T) => work.catch(() => fallback);

  return {
    kind: 'redis',
    async get(key) {
      const buffer = await quiet(redis.getBuffer(entryKey(key)), null);
      return buffer ? decodeEntry(buffer) : null;
    },
    async set(entry, ttlMs) {
      await quiet(redis.set(entryKey(entry.key), encodeEntry(entry), 'PX', Math.ceil(ttlMs)), null);
    },
    async lock(key, ttlMs) {
      // Redis away: nobody can coordinate, so every gateway renders for itself.
      return (await quiet(redis.set(lockKey(key), '1', 'PX', ttlMs, 'NX'), 'OK')) === 'OK';
    },
    async unlock(key) {
      await quiet(redis.del(lockKey(key)), 0);
    },
    async purge(pattern) {
      // Redis glob: escape its specials in the path, then `*` as given.
      const glob = pattern.replace(/[?[\]\\]/g, '\\$&');
      let removed = 0;
      for await (const keys of redis.scanStream({ match: `${prefix}cache:*:${glob}\\?*`, count: 500 }) as AsyncIterable<string[]>) {
        if (keys.length > 0) removed += await redis.del(...keys);
      }
      await redis.publish(channel, String(removed));
      return removed;
    },
    onPurge(listener) {
      const subscriber = redis.duplicate({ enableOfflineQueue: true, commandTimeout: undefined });
      subscriber.on('error', () => undefined);
      subscribers.add(subscriber);
      void subscriber.subscribe(channel).catch(() => undefined);
      subscriber.on('message', () => listener());
      return () => {
        subscribers.delete(subscriber);
        subscriber.disconnect();
      };
    },
    async ping() {
      return (await quiet(redis.ping(), '')) === 'PONG';
    },
    async close() {
      for (const subscriber of subscribers) subscriber.disconnect();
      redis.disconnect();
    },
  };
}

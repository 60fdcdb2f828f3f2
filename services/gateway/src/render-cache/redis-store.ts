/**
 * The shared cache in Redis. Its own client with short timeouts and no offline queue: while
 * Redis is away or slow every command fails within CACHE_STORE_TIMEOUT_MS and the gateway goes
 * on with its memory and the renderer. Keys: `{prefix}cache:{build}:{path}?{query}#{variant}`,
 * each with a TTL; render locks `{prefix}cache-lock:…` with SET NX PX.
 *
 * A byte budget (CACHE_REDIS_BYTES) over the entries' keys and values: one script stores an entry
 * and, in the same step, deletes the least recently written ones until it fits. Its book-keeping
 * is three keys, each with a TTL like every key here (the `durable` Redis runs `volatile-lru`, which
 * may only evict keys with one): `cache-index` (a sorted set of entry keys by time of writing),
 * `cache-sizes` (a hash of their sizes) and `cache-bytes` (their sum). An entry that expired by its
 * TTL stays counted until it is the oldest: the count can only overstate what is held.
 */
import type { Redis } from 'ioredis';
import { openRedis } from '@tern/shared/redis/connection';
import { decodeEntry, encodeEntry } from './cache-entry.js';
import { UNTIL_NEXT_BUILD_TTL_MS, type SharedCacheStore } from './shared-store.js';

/** KEYS: entry, index, sizes, bytes. ARGV: value, ttl ms, budget, now ms. 1 stored, 0 too large. */
const SET_WITHIN_BUDGET = `
local size = string.len(ARGV[1]) + string.len(KEYS[1])
local budget = tonumber(ARGV[3])
if size > budget then return 0 end
local total = tonumber(redis.call('GET', KEYS[4]) or '0') - tonumber(redis.call('HGET', KEYS[3], KEYS[1]) or '0')
redis.call('HDEL', KEYS[3], KEYS[1])
redis.call('ZREM', KEYS[2], KEYS[1])
while total + size > budget do
  local oldest = redis.call('ZRANGE', KEYS[2], 0, 0)
  if #oldest == 0 then total = 0 break end
  total = total - tonumber(redis.call('HGET', KEYS[3], oldest[1]) or '0')
  redis.call('ZREM', KEYS[2], oldest[1])
  redis.call('HDEL', KEYS[3], oldest[1])
  redis.call('DEL', oldest[1])
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[4], KEYS[1])
redis.call('HSET', KEYS[3], KEYS[1], size)
redis.call('SET', KEYS[4], total + size)
local keep = math.max(tonumber(ARGV[2]), redis.call('PTTL', KEYS[2]), tonumber(ARGV[5]))
for i = 2, 4 do redis.call('PEXPIRE', KEYS[i], keep) end
return 1
`;

/** KEYS: index, sizes, bytes, then the entries to delete. Answers how many existed. */
const DELETE_COUNTED = `
local removed = 0
local freed = 0
for i = 4, #KEYS do
  freed = freed + tonumber(redis.call('HGET', KEYS[2], KEYS[i]) or '0')
  redis.call('HDEL', KEYS[2], KEYS[i])
  redis.call('ZREM', KEYS[1], KEYS[i])
  removed = removed + redis.call('DEL', KEYS[i])
end
if freed > 0 and redis.call('EXISTS', KEYS[3]) == 1 then
  redis.call('SET', KEYS[3], math.max(0, tonumber(redis.call('GET', KEYS[3])) - freed), 'KEEPTTL')
end
return removed
`;

interface BudgetCommands {
  setWithinBudget(
    entry: string,
    index: string,
    sizes: string,
    bytes: string,
    value: Buffer,
    ttlMs: number,
    budget: number,
    now: number,
    keepMs: number,
  ): Promise<number>;
  deleteCounted(numKeys: number, ...keys: string[]): Promise<number>;
}

export interface RedisCacheStoreOptions {
  /** For one-off tools (the purge command), which must wait for the connection. */
  queueWhileConnecting?: boolean;
  /** The byte budget of entry keys and values; unbounded when absent. */
  maxBytes?: number;
  now?: () => number;
}

/** The store's connection, with its two scripts defined. */
function openCacheRedis(url: string, timeoutMs: number, queueWhileConnecting: boolean): Redis & BudgetCommands {
  // Why Redis cannot be used is logged once per process by packages/shared/src/redis/connection.ts.
  const redis = openRedis(url, {
    options: {
      commandTimeout: timeoutMs,
      connectTimeout: 2000,
      maxRetriesPerRequest: queueWhileConnecting ? 1 : 0,
      enableOfflineQueue: queueWhileConnecting,
      retryStrategy: (times) => Math.min(times * 200, 1000),
    },
  });
  redis.defineCommand('setWithinBudget', { numberOfKeys: 4, lua: SET_WITHIN_BUDGET });
  redis.defineCommand('deleteCounted', { lua: DELETE_COUNTED });
  return redis as unknown as Redis & BudgetCommands;
}

/** Deletes the entries whose path matches `pattern` (their bytes uncounted); how many went. */
async function purgeEntries(
  redis: Redis & BudgetCommands,
  prefix: string,
  counters: readonly [string, string, string],
  pattern: string,
): Promise<number> {
  // Redis glob: escape its specials in the path, then `*` as given.
  const glob = pattern.replace(/[?[\]\\]/g, '\\$&');
  let removed = 0;
  for await (const keys of redis.scanStream({ match: `${prefix}cache:*:${glob}\\?*`, count: 500 }) as AsyncIterable<string[]>) {
    if (keys.length > 0) removed += await redis.deleteCounted(3 + keys.length, ...counters, ...keys);
  }
  return removed;
}

export function createRedisCacheStore(
  url: string,
  prefix: string,
  timeoutMs: number,
  { queueWhileConnecting = false, maxBytes = Number.MAX_SAFE_INTEGER, now = Date.now }: RedisCacheStoreOptions = {},
): SharedCacheStore {
  const redis = openCacheRedis(url, timeoutMs, queueWhileConnecting);
  const [index, sizes, bytes] = ['cache-index', 'cache-sizes', 'cache-bytes'].map((name) => `${prefix}${name}`) as [string, string, string];
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
      const ttl = Math.ceil(ttlMs);
      await quiet(
        redis.setWithinBudget(entryKey(entry.key), index, sizes, bytes, encodeEntry(entry), ttl, maxBytes, now(), UNTIL_NEXT_BUILD_TTL_MS),
        0,
      );
    },
    async lock(key, ttlMs) {
      // Redis away: nobody can coordinate, so every gateway renders for itself.
      return (await quiet(redis.set(lockKey(key), '1', 'PX', ttlMs, 'NX'), 'OK')) === 'OK';
    },
    async unlock(key) {
      await quiet(redis.del(lockKey(key)), 0);
    },
    async purge(pattern) {
      const removed = await purgeEntries(redis, prefix, [index, sizes, bytes], pattern);
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

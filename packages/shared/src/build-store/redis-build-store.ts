/**
 * The build store in Redis. Keys (with the configured prefix, `site:` by default (packages/shared/src/config/service-config.ts)):
 *   {prefix}build:current      JSON { id, timestamp } of the current build
 *   {prefix}build:meta:{id}    JSON meta of one build
 *   {prefix}build:history      list of the last builds' ids whose metas are kept, latest publish first
 *   {prefix}build:order        sorted set of build ids, scored by when each was first published (a sequence)
 *   {prefix}build:stamps       hash of build id -> the build timestamp it was first published with
 *   {prefix}build:sequence     the counter behind build:order
 *   {prefix}build:changed      pub/sub channel, a message { id, timestamp } per publish
 *   {prefix}build:renderers    sorted set of JSON { buildId, url }, scored by when it expires (ms)
 */
import type { Redis } from 'ioredis';
import { openRedis, redisHealth, type RedisLog } from '../redis/connection.js';
import {
  BUILDS_KEPT,
  BUILDS_REMEMBERED,
  isBuildId,
  type BuildInfo,
  type BuildMeta,
  type BuildStore,
  type PublishedBuild,
  type RendererEntry,
} from './types.js';
import { DEFAULT_REDIS_PREFIX } from '../redis/key-prefix.js';

export interface RedisBuildStoreOptions {
  url: string;
  prefix?: string;
  keep?: number;
  /** Where a Redis that cannot be used is reported (packages/shared/src/redis/connection.ts). */
  log?: RedisLog | undefined;
}

/**
 * One publish, atomically: store the meta; count it as a new publication when its id is new or its
 * build timestamp later than the one recorded; make it current only if it is the newest
 * publication; keep the last `keep` metas (never the current build's).
 * KEYS: current, history, order, stamps, sequence. ARGV: id, meta, info, timestamp, keep, remembered, meta key prefix.
 */
const PUBLISH = `
local id, ts, keep, remembered, metaPrefix = ARGV[1], tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6]), ARGV[7]
redis.call('SET', metaPrefix .. id, ARGV[2])
local known = redis.call('HGET', KEYS[4], id)
if (not known) or tonumber(known) < ts then
  redis.call('ZADD', KEYS[3], redis.call('INCR', KEYS[5]), id)
  redis.call('HSET', KEYS[4], id, ARGV[4])
  local extra = redis.call('ZCARD', KEYS[3]) - remembered
  if extra > 0 then
    local gone = redis.call('ZRANGE', KEYS[3], 0, extra - 1)
    redis.call('ZREMRANGEBYRANK', KEYS[3], 0, extra - 1)
    redis.call('HDEL', KEYS[4], unpack(gone))
  end
end
local isCurrent = redis.call('ZREVRANGE', KEYS[3], 0, 0)[1] == id
local currentId = id
if isCurrent then
  redis.call('SET', KEYS[1], ARGV[3])
else
  local raw = redis.call('GET', KEYS[1])
  currentId = raw and cjson.decode(raw).id or ''
end
redis.call('LREM', KEYS[2], 0, id)
redis.call('LPUSH', KEYS[2], id)
for _, old in ipairs(redis.call('LRANGE', KEYS[2], keep, -1)) do
  if old ~= currentId then redis.call('DEL', metaPrefix .. old) end
end
redis.call('LTRIM', KEYS[2], 0, keep - 1)
return isCurrent and 1 or 0
`;

/** The rollback: a kept build becomes the newest publication and current. KEYS: current, order, sequence, meta. */
const PROMOTE = `
local raw = redis.call('GET', KEYS[4])
if not raw then return 0 end
local meta = cjson.decode(raw)
redis.call('ZADD', KEYS[2], redis.call('INCR', KEYS[3]), ARGV[1])
redis.call('SET', KEYS[1], cjson.encode({ id = meta.id, timestamp = meta.timestamp }))
return 1
`;

export function createRedisBuildStore(options: RedisBuildStoreOptions): BuildStore {
  const prefix = options.prefix ?? DEFAULT_REDIS_PREFIX;
  const keep = options.keep ?? BUILDS_KEPT;
  const keys = {
    current: `${prefix}build:current`,
    meta: (id: string) => `${prefix}build:meta:${id}`,
    history: `${prefix}build:history`,
    order: `${prefix}build:order`,
    stamps: `${prefix}build:stamps`,
    sequence: `${prefix}build:sequence`,
    channel: `${prefix}build:changed`,
    renderers: `${prefix}build:renderers`,
  };
  const member = (entry: RendererEntry) => JSON.stringify({ buildId: entry.buildId, url: entry.url });
  // Queued while connecting (the renderer publishes right at start); bounded by the retry limit.
  const open = () => openRedis(options.url, { log: options.log, options: { enableOfflineQueue: true } });
  const redis = open();
  const subscribers = new Set<Redis>();
  const health = redisHealth(redis);

  async function current(): Promise<BuildInfo | null> {
    const raw = await redis.get(keys.current);
    return raw ? (JSON.parse(raw) as BuildInfo) : null;
  }

  return {
    kind: 'redis',
    async publish(meta) {
      if (!isBuildId(meta.id)) throw new Error(`invalid build id: ${JSON.stringify(meta.id)}`);
      const info = JSON.stringify({ id: meta.id, timestamp: meta.timestamp });
      const publishKeys = [keys.current, keys.history, keys.order, keys.stamps, keys.sequence];
      const args = [meta.id, JSON.stringify(meta), info, String(meta.timestamp), String(keep), String(BUILDS_REMEMBERED), keys.meta('')];
      const made = await redis.eval(PUBLISH, publishKeys.length, ...publishKeys, ...args);
      if (made !== 1) return 'superseded';
      await redis.publish(keys.channel, info);
      return 'current';
    },
    async promote(id) {
      if (!isBuildId(id)) return false;
      if ((await redis.eval(PROMOTE, 4, keys.current, keys.order, keys.sequence, keys.meta(id), id)) !== 1) return false;
      const info = await current();
      if (info) await redis.publish(keys.channel, JSON.stringify(info));
      return true;
    },
    async builds() {
      const ids = await redis.zrevrange(keys.order, 0, -1);
      if (ids.length === 0) return [];
      const stamps = await redis.hmget(keys.stamps, ...ids);
      const present = await Promise.all(ids.map(async (id) => (await redis.exists(keys.meta(id))) === 1));
      return ids.map((id, i): PublishedBuild => ({ id, timestamp: Number(stamps[i] ?? 0), kept: present[i]! }));
    },
    current,
    async meta(id) {
      if (!isBuildId(id)) return null;
      const raw = await redis.get(keys.meta(id));
      return raw ? (JSON.parse(raw) as BuildMeta) : null;
    },
    watch(listener) {
      const subscriber = open();
      subscribers.add(subscriber);
      let last: string | undefined;
      const report = (build: BuildInfo | null) => {
        const key = build ? `${build.id}:${build.timestamp}` : undefined;
        if (build && last !== undefined && key !== last) listener(build);
        last = key ?? '';
      };
      void subscriber.subscribe(keys.channel).catch(() => undefined);
      subscriber.on('message', (_channel: string, message: string) => report(JSON.parse(message) as BuildInfo));
      // A publish missed while disconnected is caught up on reconnect.
      subscriber.on('ready', () => void current().then(report, () => undefined));
      void current().then(report, () => undefined);
      return () => {
        subscribers.delete(subscriber);
        subscriber.disconnect();
      };
    },
    async announceRenderer(entry, ttlMs) {
      if (!isBuildId(entry.buildId)) throw new Error(`invalid build id: ${JSON.stringify(entry.buildId)}`);
      await redis.zadd(keys.renderers, Date.now() + ttlMs, member(entry));
    },
    async withdrawRenderer(entry) {
      await redis.zrem(keys.renderers, member(entry));
    },
    async renderers() {
      const now = Date.now();
      // Expired entries (a renderer that died without withdrawing) are dropped by whoever reads first.
      const [, live] =
        (await redis.multi().zremrangebyscore(keys.renderers, '-inf', now).zrangebyscore(keys.renderers, now, '+inf').exec()) ?? [];
      const members = (live?.[1] as string[] | undefined) ?? [];
      return members.map((raw) => JSON.parse(raw) as RendererEntry);
    },
    ping: health.ping,
    unavailableReason: health.unavailableReason,
    async close() {
      for (const subscriber of subscribers) subscriber.disconnect();
      subscribers.clear();
      redis.disconnect();
    },
  };
}

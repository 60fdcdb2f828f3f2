/**
 * The build store in Redis. Keys (with the configured prefix, `cookbook:` by default):
 *   {prefix}build:current      JSON { id, timestamp } of the current build
 *   {prefix}build:meta:{id}    JSON meta of one build
 *   {prefix}build:history      list of the last builds' ids, newest first
 *   {prefix}build:changed      pub/sub channel, a message { id, timestamp } per publish
 *   {prefix}build:renderers    sorted set of JSON { buildId, url }, scored by when it expires (ms)
 */
import { Redis } from 'ioredis';
import { pingRedis, resilientRedisOptions } from '../redis.js';
import { BUILDS_KEPT, isBuildId, type BuildInfo, type BuildMeta, type BuildStore, type RendererEntry } from './types.js';

export interface RedisBuildStoreOptions {
  url: string;
  prefix?: string;
  keep?: number;
}

export function createRedisBuildStore(options: RedisBuildStoreOptions): BuildStore {
  const prefix = options.prefix ?? 'cookbook:';
  const keep = options.keep ?? BUILDS_KEPT;
  const keys = {
    current: `${prefix}build:current`,
    meta: (id: string) => `${prefix}build:meta:${id}`,
    history: `${prefix}build:history`,
    channel: `${prefix}build:changed`,
    renderers: `${prefix}build:renderers`,
  };
  const member = (entry: RendererEntry) => JSON.stringify({ buildId: entry.buildId, url: entry.url });
  // Queued while connecting (the renderer publishes right at start); bounded by the retry limit.
  const redis = new Redis(options.url, { ...resilientRedisOptions, enableOfflineQueue: true });
  redis.on('error', () => undefined); // reported through ping() and readiness, not as crashes
  const subscribers = new Set<Redis>();

  async function current(): Promise<BuildInfo | null> {
    const raw = await redis.get(keys.current);
    return raw ? (JSON.parse(raw) as BuildInfo) : null;
  }

  return {
    kind: 'redis',
    async publish(meta) {
      if (!isBuildId(meta.id)) throw new Error(`invalid build id: ${JSON.stringify(meta.id)}`);
      const info = JSON.stringify({ id: meta.id, timestamp: meta.timestamp });
      await redis
        .multi()
        .set(keys.meta(meta.id), JSON.stringify(meta))
        .lrem(keys.history, 0, meta.id)
        .lpush(keys.history, meta.id)
        .set(keys.current, info)
        .exec();
      const stale = await redis.lrange(keys.history, keep, -1);
      if (stale.length > 0) {
        await redis
          .multi()
          .del(...stale.map(keys.meta))
          .ltrim(keys.history, 0, keep - 1)
          .exec();
      }
      await redis.publish(keys.channel, info);
    },
    current,
    async meta(id) {
      if (!isBuildId(id)) return null;
      const raw = await redis.get(keys.meta(id));
      return raw ? (JSON.parse(raw) as BuildMeta) : null;
    },
    watch(listener) {
      const subscriber = redis.duplicate();
      subscriber.on('error', () => undefined);
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
    ping: () => pingRedis(redis),
    async close() {
      for (const subscriber of subscribers) subscriber.disconnect();
      subscribers.clear();
      redis.disconnect();
    },
  };
}

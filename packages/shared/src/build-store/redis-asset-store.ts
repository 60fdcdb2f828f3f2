/**
 * The asset store in Redis. Keys (with the configured prefix):
 *   {prefix}asset:{name}           hash of the file's encodings (identity, br, gzip), with a TTL
 *   {prefix}assets:build:{id}      set of the names of one build's files, with the same TTL
 *   {prefix}assets:builds          list of the kept builds' ids, newest first
 */
import { openRedis, type RedisLog } from '../redis/connection.js';
import { isBuildId } from './types.js';
import { ASSET_BUILDS_KEPT, ASSET_TTL_MS, isAssetName, type AssetStore, type AssetStoreLimits } from './asset-types.js';
import { DEFAULT_REDIS_PREFIX } from '../redis/key-prefix.js';

export interface RedisAssetStoreOptions extends Partial<AssetStoreLimits> {
  url: string;
  prefix?: string;
  log?: RedisLog | undefined;
}

const ENCODINGS = ['identity', 'br', 'gzip'] as const;

export function createRedisAssetStore(options: RedisAssetStoreOptions): AssetStore {
  const prefix = options.prefix ?? DEFAULT_REDIS_PREFIX;
  const keep = options.keep ?? ASSET_BUILDS_KEPT;
  const ttlMs = options.ttlMs ?? ASSET_TTL_MS;
  const keys = {
    asset: (name: string) => `${prefix}asset:${name}`,
    build: (id: string) => `${prefix}assets:build:${id}`,
    builds: `${prefix}assets:builds`,
  };
  // A publish is a few hundred KB: more time than the 500 ms a page's commands get.
  const redis = openRedis(options.url, { log: options.log, options: { enableOfflineQueue: true, commandTimeout: 5000 } });

  async function trim(): Promise<void> {
    const stale = await redis.lrange(keys.builds, keep, -1);
    if (stale.length === 0) return;
    const kept = await redis.lrange(keys.builds, 0, keep - 1);
    const shared = new Set(kept.length > 0 ? await redis.sunion(...kept.map(keys.build)) : []);
    const names = new Set((await Promise.all(stale.map((id) => redis.smembers(keys.build(id))))).flat());
    const gone = [...names].filter((name) => !shared.has(name)).map(keys.asset);
    const multi = redis.multi();
    if (gone.length > 0) multi.del(...gone);
    await multi
      .del(...stale.map(keys.build))
      .ltrim(keys.builds, 0, keep - 1)
      .exec();
  }

  return {
    kind: 'redis',
    async publish(buildId, files) {
      if (!isBuildId(buildId)) throw new Error(`invalid build id: ${JSON.stringify(buildId)}`);
      const bad = files.find((file) => !isAssetName(file.name));
      if (bad) throw new Error(`invalid asset name: ${JSON.stringify(bad.name)}`);
      // The files first, the build's list last: a build whose list exists has all its files.
      for (const file of files) {
        const fields: Record<string, Buffer> = {};
        for (const encoding of ENCODINGS) if (file[encoding]) fields[encoding] = file[encoding];
        await redis.multi().hset(keys.asset(file.name), fields).pexpire(keys.asset(file.name), ttlMs).exec();
      }
      const multi = redis.multi().del(keys.build(buildId));
      if (files.length > 0) multi.sadd(keys.build(buildId), ...files.map((file) => file.name));
      else multi.sadd(keys.build(buildId), '');
      await multi.pexpire(keys.build(buildId), ttlMs).lrem(keys.builds, 0, buildId).lpush(keys.builds, buildId).exec();
      await trim();
    },
    async has(buildId) {
      if (!isBuildId(buildId)) return false;
      // Every file, not only the list: volatile-lru may evict a file alone (it has a TTL), and the
      // renderer's next tick then publishes the build again (docs/decisions/durable-data.md).
      const names = (await redis.smembers(keys.build(buildId))).filter(isAssetName);
      if (names.length === 0) return (await redis.exists(keys.build(buildId))) === 1;
      return (await redis.exists(...names.map(keys.asset))) === names.length;
    },
    async get(name, encodings) {
      if (!isAssetName(name)) return null;
      for (const encoding of encodings) {
        const body = await redis.hgetBuffer(keys.asset(name), encoding);
        if (body) return { encoding, body };
      }
      return null;
    },
    async touch(buildId) {
      if (!isBuildId(buildId)) return;
      const names = (await redis.smembers(keys.build(buildId))).filter(isAssetName);
      const multi = redis.multi().pexpire(keys.build(buildId), ttlMs);
      for (const name of names) multi.pexpire(keys.asset(name), ttlMs);
      await multi.exec();
    },
    async builds() {
      return redis.lrange(keys.builds, 0, keep - 1);
    },
    async close() {
      redis.disconnect();
    },
  };
}

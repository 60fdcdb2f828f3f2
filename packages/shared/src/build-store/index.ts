import { join } from 'node:path';
import { createFileBuildStore } from './file-build-store.js';
import { createRedisBuildStore } from './redis-build-store.js';
import { createFileAssetStore } from './file-asset-store.js';
import { createRedisAssetStore } from './redis-asset-store.js';
import type { AssetStore, AssetStoreLimits } from './asset-types.js';
import type { BuildStore } from './types.js';
import type { RedisLog } from '../redis/connection.js';
import { DEFAULT_REDIS_PREFIX } from '../redis/key-prefix.js';

export * from './types.js';
export * from './asset-types.js';
export { readClientAssets } from './client-assets.js';
export { keepPublished, republishIfLost, type KeepPublishedOptions } from './keep-published.js';
export { createFileAssetStore, createFileBuildStore, createRedisAssetStore, createRedisBuildStore };

export interface BuildStoreConfig {
  /** Redis when set; otherwise the embedded file store in `dir`. */
  redisUrl?: string | undefined;
  redisPrefix?: string;
  dir: string;
  /** Where a Redis that cannot be used is reported, with its reason (packages/shared/src/redis/connection.ts). */
  log?: RedisLog | undefined;
}

export function createBuildStore(config: BuildStoreConfig): BuildStore {
  return config.redisUrl
    ? createRedisBuildStore({ url: config.redisUrl, prefix: config.redisPrefix ?? DEFAULT_REDIS_PREFIX, log: config.log })
    : createFileBuildStore({ dir: config.dir });
}

/** The shared client assets of recent builds: in Redis beside the builds, or in `{dir}/assets`. */
export function createAssetStore(config: BuildStoreConfig & AssetStoreLimits): AssetStore {
  const limits = { keep: config.keep, ttlMs: config.ttlMs };
  return config.redisUrl
    ? createRedisAssetStore({ url: config.redisUrl, prefix: config.redisPrefix ?? DEFAULT_REDIS_PREFIX, log: config.log, ...limits })
    : createFileAssetStore({ dir: join(config.dir, 'assets'), ...limits });
}

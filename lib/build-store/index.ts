import { join } from 'node:path';
import { createFileBuildStore } from './file-build-store.js';
import { createRedisBuildStore } from './redis-build-store.js';
import { createFileAssetStore } from './file-asset-store.js';
import { createRedisAssetStore } from './redis-asset-store.js';
import type { AssetStore, AssetStoreLimits } from './asset-types.js';
import type { BuildStore } from './types.js';

export * from './types.js';
export * from './asset-types.js';
export { readClientAssets } from './client-assets.js';
export { keepPublished, republishIfLost } from './keep-published.js';
export { createFileAssetStore, createFileBuildStore, createRedisAssetStore, createRedisBuildStore };

export interface BuildStoreConfig {
  /** Redis when set; otherwise the embedded file store in `dir`. */
  redisUrl?: string | undefined;
  redisPrefix?: string;
  dir: string;
}

export function createBuildStore(config: BuildStoreConfig): BuildStore {
  return config.redisUrl
    ? createRedisBuildStore({ url: config.redisUrl, prefix: config.redisPrefix ?? 'cookbook:' })
    : createFileBuildStore({ dir: config.dir });
}

/** The shared client assets of recent builds: in Redis beside the builds, or in `{dir}/assets`. */
export function createAssetStore(config: BuildStoreConfig & AssetStoreLimits): AssetStore {
  const limits = { keep: config.keep, ttlMs: config.ttlMs };
  return config.redisUrl
    ? createRedisAssetStore({ url: config.redisUrl, prefix: config.redisPrefix ?? 'cookbook:', ...limits })
    : createFileAssetStore({ dir: join(config.dir, 'assets'), ...limits });
}

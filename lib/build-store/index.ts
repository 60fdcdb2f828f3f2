import { createFileBuildStore } from './file-build-store.js';
import { createRedisBuildStore } from './redis-build-store.js';
import type { BuildStore } from './types.js';

export * from './types.js';
export { keepPublished, republishIfLost } from './keep-published.js';
export { createFileBuildStore, createRedisBuildStore };

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

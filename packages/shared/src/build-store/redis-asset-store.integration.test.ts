import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { deleteKeys, redisAvailable, TEST_REDIS_URL } from '../../../../tests/support/redis.js';
import { describeAssetStore } from './asset-store.contract.js';
import { createRedisAssetStore } from './redis-asset-store.js';

const run = `test:${randomUUID()}:`;
const available = await redisAvailable();

describe.runIf(available)('redis asset store', () => {
  describeAssetStore('redis', async (scope, limits) =>
    createRedisAssetStore({ url: TEST_REDIS_URL, prefix: `${run}${scope}:`, ...limits }),
  );

  it('no longer has a build one of whose files was evicted, so the renderer publishes it again', async () => {
    const prefix = `${run}evicted:`;
    const store = createRedisAssetStore({ url: TEST_REDIS_URL, prefix, keep: 3, ttlMs: 60_000 });
    const redis = new Redis(TEST_REDIS_URL);
    try {
      const files = ['entry-Abc123.js', 'page-Def456.js'].map((name) => ({ name, identity: Buffer.from(name) }));
      await store.publish('build-a', files);
      expect(await store.has('build-a')).toBe(true);
      await redis.del(`${prefix}asset:page-Def456.js`); // what maxmemory-policy volatile-lru may do
      expect(await store.has('build-a')).toBe(false);
      await store.publish('build-a', files);
      expect(await store.has('build-a')).toBe(true);
    } finally {
      redis.disconnect();
      await store.close();
    }
  });

  afterAll(() => deleteKeys(TEST_REDIS_URL, run));
});

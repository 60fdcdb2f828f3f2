import { randomUUID } from 'node:crypto';
import { afterAll, describe } from 'vitest';
import { deleteKeys, redisAvailable, TEST_REDIS_URL } from '../testing.js';
import { describeAssetStore } from './asset-store.contract.js';
import { createRedisAssetStore } from './redis-asset-store.js';

const run = `test:${randomUUID()}:`;
const available = await redisAvailable();

describe.runIf(available)('redis asset store', () => {
  describeAssetStore('redis', async (scope, limits) =>
    createRedisAssetStore({ url: TEST_REDIS_URL, prefix: `${run}${scope}:`, ...limits }),
  );
  afterAll(() => deleteKeys(TEST_REDIS_URL, run));
});

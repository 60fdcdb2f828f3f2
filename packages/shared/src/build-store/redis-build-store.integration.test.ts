import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { deleteKeys, ownRedis, redisAvailable, redisServerInstalled, TEST_REDIS_URL } from '../../../../tests/support/redis.js';
import { describeBuildStore } from './build-store.contract.js';
import { createRedisBuildStore } from './redis-build-store.js';

const run = `test:${randomUUID()}:`;
const available = await redisAvailable();

describe.runIf(available)('redis build store', () => {
  describeBuildStore(
    'redis',
    async (scope) => createRedisBuildStore({ url: TEST_REDIS_URL, prefix: `${run}${scope}:` }),
    (scope) => deleteKeys(TEST_REDIS_URL, `${run}${scope}:`),
  );
  afterAll(() => deleteKeys(TEST_REDIS_URL, run));
});

describe.runIf(redisServerInstalled())('redis build store on a Redis that hangs after it was ready', () => {
  it('says why it does not answer, though no connection error was raised', async () => {
    const redis = await ownRedis();
    await redis.start();
    const store = createRedisBuildStore({ url: redis.url });
    try {
      expect(await store.ping()).toBe(true);
      expect(store.unavailableReason()).toBeNull();
      redis.hang();
      expect(await store.ping()).toBe(false);
      expect(store.unavailableReason()).toMatch(/^connected, but no reply within 500 ms/);
      redis.resume();
      expect(await store.ping()).toBe(true);
      expect(store.unavailableReason()).toBeNull();
    } finally {
      redis.resume();
      await store.close();
      await redis.stop();
    }
  });
});

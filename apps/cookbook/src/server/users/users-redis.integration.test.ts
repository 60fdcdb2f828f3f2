import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe } from 'vitest';
import { deleteKeys, redisAvailable, TEST_REDIS_URL } from '../../../../../tests/support/redis.js';
import { createRedisUserStore } from './redis-user-store.js';
import { describeUserStore } from './user-store.contract.js';

const run = `test:${randomUUID()}:`;
const available = await redisAvailable();

describe.runIf(available)('redis user store', () => {
  describeUserStore('redis', async (scope) =>
    createRedisUserStore({
      redis: new Redis(TEST_REDIS_URL),
      prefix: `${run}${scope}:`,
      cost: { N: 1024, r: 8, p: 1 },
      ownsConnection: true,
    }),
  );
  afterAll(() => deleteKeys(TEST_REDIS_URL, run));
});

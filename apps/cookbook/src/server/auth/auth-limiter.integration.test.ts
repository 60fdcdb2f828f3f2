import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe } from 'vitest';
import { deleteKeys, redisAvailable, TEST_REDIS_URL } from '../../../../../tests/support/redis.js';
import { describeLoginLimiter } from './login-limiter.contract.js';
import { createMemoryLoginLimiter, createRedisLoginLimiter } from './login-limiter.js';

describeLoginLimiter('memory', (settings) => createMemoryLoginLimiter(settings));

const run = `test:${randomUUID()}:`;
const available = await redisAvailable();

describe.runIf(available)('redis login limiter', () => {
  const redis = new Redis(TEST_REDIS_URL);
  describeLoginLimiter('redis', (settings, scope) => createRedisLoginLimiter({ ...settings, redis, prefix: `${run}${scope}:` }));
  afterAll(async () => {
    await deleteKeys(TEST_REDIS_URL, run);
    redis.disconnect();
  });
});

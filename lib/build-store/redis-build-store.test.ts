import { randomUUID } from 'node:crypto';
import { afterAll, describe } from 'vitest';
import { deleteKeys, redisAvailable, TEST_REDIS_URL } from '../testing.js';
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

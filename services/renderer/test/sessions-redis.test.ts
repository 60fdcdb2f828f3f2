import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { deleteKeys, redisAvailable, TEST_REDIS_URL } from '../../../lib/testing.js';
import { createRedisSessionStore } from '../src/server/sessions/redis-session-store.js';
import { describeSessionStore } from '../src/server/sessions/session-store.contract.js';

const run = `test:${randomUUID()}:`;
const available = await redisAvailable();

describe.runIf(available)('redis session store', () => {
  describeSessionStore('redis', async (scope) =>
    createRedisSessionStore({ redis: new Redis(TEST_REDIS_URL), prefix: `${run}${scope}:`, ownsConnection: true }),
  );

  it('stores the session under a hash of its id, with a Redis expiry', async () => {
    const redis = new Redis(TEST_REDIS_URL);
    const store = createRedisSessionStore({ redis, prefix: `${run}keys:` });
    const session = await store.create('u', 60_000);
    const keys = await redis.keys(`${run}keys:*`);
    expect(keys).toHaveLength(1);
    expect(keys[0]).not.toContain(session.id);
    const ttl = await redis.pttl(keys[0]!);
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
    redis.disconnect();
  });

  afterAll(() => deleteKeys(TEST_REDIS_URL, run));
});

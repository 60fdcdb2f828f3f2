import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { deleteKeys, redisAvailable, TEST_REDIS_URL } from '../../../../../tests/support/redis.js';
import { waitFor } from '../../../../../tests/support/wait-for.js';
import { createRedisSessionStore } from './redis-session-store.js';
import { describeSessionStore } from './session-store.contract.js';

const run = `test:${randomUUID()}:`;
const available = await redisAvailable();

describe.runIf(available)('redis session store', () => {
  describeSessionStore('redis', async (scope) =>
    createRedisSessionStore({ redis: new Redis(TEST_REDIS_URL), prefix: `${run}${scope}:`, ownsConnection: true }),
  );

  it('stores the session under a hash of its id with no Redis TTL (volatile-lru never evicts it), indexed by its expiry', async () => {
    const redis = new Redis(TEST_REDIS_URL);
    const store = createRedisSessionStore({ redis, prefix: `${run}keys:` });
    const session = await store.create('u', 60_000);
    const keys = await redis.keys(`${run}keys:session:*`);
    expect(keys).toHaveLength(1);
    expect(keys[0]).not.toContain(session.id);
    expect(await redis.pttl(keys[0]!)).toBe(-1);
    expect(Number(await redis.zscore(`${run}keys:sessions:expiry`, keys[0]!))).toBe(session.expiresAt);
    await store.destroy(session.id);
    expect(await redis.exists(keys[0]!)).toBe(0);
    expect(await redis.zcard(`${run}keys:sessions:expiry`)).toBe(0);
    redis.disconnect();
  });

  it('deletes expired sessions when the next one is created, so they never pile up', async () => {
    const redis = new Redis(TEST_REDIS_URL);
    const store = createRedisSessionStore({ redis, prefix: `${run}sweep:` });
    let last = 0;
    for (let i = 0; i < 3; i++) last = (await store.create('brief', 1)).expiresAt;
    await waitFor(() => Date.now() > last, 1000, 1);
    const kept = await store.create('long', 60_000);
    expect(await redis.keys(`${run}sweep:session:*`)).toHaveLength(1);
    expect(await redis.zcard(`${run}sweep:sessions:expiry`)).toBe(1);
    expect(await store.get(kept.id)).not.toBeNull();
    redis.disconnect();
  });

  it('expires a session by its injected clock, even while Redis still holds the key', async () => {
    let now = Date.now();
    const store = createRedisSessionStore({
      redis: new Redis(TEST_REDIS_URL),
      prefix: `${run}clock:`,
      ownsConnection: true,
      now: () => now,
    });
    const session = await store.create('u', 60_000);
    expect(session.createdAt).toBe(now);
    expect(await store.get(session.id)).not.toBeNull();
    now += 60_000;
    expect(await store.get(session.id)).toBeNull();
    await store.close();
  });

  afterAll(() => deleteKeys(TEST_REDIS_URL, run));
});

/**
 * DEMO_ACCOUNT=false with Redis: a demo account there (imported from a users file, say) is removed
 * at start with one log line, and a session it had finds no user any more.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { deleteKeys, redisAvailable, TEST_REDIS_URL } from '../../../../../tests/support/redis.js';
import { waitFor } from '../../../../../tests/support/wait-for.js';
import { DEMO_EMAIL, DEMO_NAME, DEMO_PASSWORD } from './demo-account.js';
import { createRedisUserStore } from '../users/redis-user-store.js';
import { cookieOf, login, ORIGIN, startAccountsApp, TEST_PASSWORD_COST } from '../../test-support/accounts-app.js';

const prefix = `test:demo-account:${randomUUID()}:`;
const available = await redisAvailable();
const demo = { email: DEMO_EMAIL, password: DEMO_PASSWORD };

describe.runIf(available)('DEMO_ACCOUNT=false with Redis', () => {
  afterAll(() => deleteKeys(TEST_REDIS_URL, prefix));

  it('removes the demo account and its saved list, with one log line; its session ends', async () => {
    const redis = new Redis(TEST_REDIS_URL);
    const store = createRedisUserStore({ redis, prefix, cost: TEST_PASSWORD_COST });
    const seeded = await store.add({ email: DEMO_EMAIL, name: DEMO_NAME, password: DEMO_PASSWORD });
    await store.save(seeded.id, 'undo-last-commit');
    const kept = await store.add({ email: 'cook@example.com', name: 'Cook', password: 'a real password' });

    const before = await startAccountsApp({ REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: prefix });
    await waitFor(() => before.accounts.ping(), 10_000, 50);
    const signedIn = await login(before.app, demo);
    expect(signedIn.statusCode).toBe(200);
    const cookie = cookieOf(signedIn);
    await before.close();

    const after = await startAccountsApp({ REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: prefix, DEMO_ACCOUNT: false });
    const removed = () => after.logs.filter((line) => line.includes('demo account removed'));
    try {
      // The server starts without waiting for Redis; the removal runs once the connection is ready.
      await waitFor(() => removed().length > 0, 10_000, 50);
      const lines = removed();
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0]!)).toMatchObject({ level: 30, users: 'redis', email: DEMO_EMAIL });
      expect(await after.accounts.viewer(new Request(`${ORIGIN}/`, { headers: { cookie } }))).toBeNull();
      expect((await login(after.app, demo)).statusCode).toBe(401);
    } finally {
      await after.close();
    }
    expect(await store.findByEmail(DEMO_EMAIL)).toBeNull();
    expect(await redis.exists(`${prefix}saved:${seeded.id}`, `${prefix}user-email:${DEMO_EMAIL}`)).toBe(0);
    expect(await store.verify('cook@example.com', 'a real password')).toEqual(kept);
    redis.disconnect();
  });
});

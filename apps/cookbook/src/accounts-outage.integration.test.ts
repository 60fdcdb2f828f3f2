/**
 * The accounts' endpoints on a Redis that is killed, hung (SIGSTOP) and restarted empty: 503 with
 * Retry-After in the error shape, then recovery with the same process and client. Uses its own
 * redis-server and kills only that one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownRedis, redisServerInstalled, type OwnRedis } from '../../../tests/support/redis.js';
import { waitFor } from '../../../tests/support/wait-for.js';
import { login, ORIGIN, startAccountsApp, type AccountsApp } from './test-support/accounts-app.js';

const installed = redisServerInstalled();
const SESSION = `cookbook_session=${'a'.repeat(43)}`;

describe.skipIf(!installed)('accounts while Redis is away', () => {
  let redis: OwnRedis;
  let t: AccountsApp;
  const wrongLogin = () => login(t.app, { email: 'nobody@example.com', password: 'not the password' });
  const session = () => t.app.inject({ url: '/api/auth/session', headers: { cookie: SESSION } });
  const saved = () => t.app.inject({ url: '/api/saved', headers: { cookie: SESSION, origin: ORIGIN } });
  const expectUnavailable = async (response: Awaited<ReturnType<typeof session>>) => {
    expect(response.statusCode).toBe(503);
    expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    expect(response.json()).toMatchObject({ statusCode: 503, statusMessage: 'Service Unavailable' });
  };

  beforeAll(async () => {
    redis = await ownRedis();
    await redis.start();
    t = await startAccountsApp({ REDIS_URL: redis.url, REDIS_PREFIX: 'outage-test:' });
    await waitFor(() => t.accounts.ping(), 10_000, 100);
  });
  afterAll(async () => {
    await redis?.stop();
    await t?.close();
  });

  it('answers normally while Redis is up', async () => {
    expect((await wrongLogin()).statusCode).toBe(401);
    expect((await session()).json()).toEqual({ user: null });
  });

  it('answers 503 with Retry-After while Redis hangs, and recovers when it resumes', async () => {
    redis.hang();
    await expectUnavailable(await wrongLogin());
    await expectUnavailable(await session());
    await expectUnavailable(await saved());
    redis.resume();
    await waitFor(async () => (await wrongLogin()).statusCode === 401, 15_000, 200);
  }, 30_000);

  it('answers 503 when Redis is killed and recovers when it comes back empty, restarting nothing', async () => {
    await redis.stop();
    await expectUnavailable(await session());
    await expectUnavailable(await wrongLogin());
    await redis.start();
    await waitFor(async () => (await session()).statusCode === 200, 15_000, 200);
    expect((await wrongLogin()).statusCode).toBe(401);
  }, 30_000);
});

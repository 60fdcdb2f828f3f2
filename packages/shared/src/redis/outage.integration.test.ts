import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { createOutageGuard, isRedisOutage, resilientRedisOptions, StoreUnavailableError } from './outage.js';
import { createService } from '../http/service.js';
import { ownRedis, redisServerInstalled, type OwnRedis } from '../../../../tests/support/redis.js';
import { waitFor } from '../../../../tests/support/wait-for.js';

const installed = redisServerInstalled();

describe('the outage guard', () => {
  it('answers 503 while open and lets calls through again after the cooldown', async () => {
    let clock = 0;
    const guard = createOutageGuard({ cooldownMs: 2000, now: () => clock });
    let calls = 0;
    let fail = true;
    const store = guard.wrap({
      async get() {
        calls++;
        if (fail) throw new Error('Command timed out');
        return 'value';
      },
      async refuse(): Promise<never> {
        throw new Error('user exists');
      },
    });
    await expect(store.get()).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(store.get()).rejects.toMatchObject({ statusCode: 503, code: 'LIB_STORE_UNAVAILABLE', headers: { 'retry-after': '2' } });
    expect(calls).toBe(1);
    fail = false;
    clock = 2000;
    await expect(store.get()).resolves.toBe('value');
    await expect(store.refuse()).rejects.toThrow('user exists');
    expect(guard.open).toBe(false);
  });

  it('tells Redis outages from other errors', () => {
    expect(isRedisOutage(new Error("Stream isn't writeable and enableOfflineQueue options is false"))).toBe(true);
    expect(isRedisOutage(new Error('connect ECONNREFUSED 127.0.0.1:1'))).toBe(true);
    expect(isRedisOutage(new Error('WRONGTYPE Operation against a key'))).toBe(false);
    // Redis refusing this client is an outage for it too: 503 with Retry-After, not a 500.
    expect(isRedisOutage(new Error('WRONGPASS invalid username-password pair or user is disabled.'))).toBe(true);
    expect(isRedisOutage(new Error('DENIED Redis is running in protected mode'))).toBe(true);
    expect(isRedisOutage(new Error('getaddrinfo ENOTFOUND redis'))).toBe(true);
  });

  it('sends the Retry-After the error carries, in the error shape', async () => {
    const app = createService({ name: 'test', logger: pino({ level: 'silent' }), production: true, checks: {} });
    app.get('/api/x', async () => {
      throw new StoreUnavailableError(2);
    });
    const response = await app.inject('/api/x');
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('2');
    expect(response.json()).toMatchObject({
      statusCode: 503,
      statusMessage: 'Service Unavailable',
      code: 'LIB_STORE_UNAVAILABLE',
      data: { retryAfterSeconds: 2 },
    });
  });
});

describe.skipIf(!installed)('a store on a Redis that goes away', () => {
  let server: OwnRedis | null = null;
  const clients: Redis[] = [];
  afterAll(async () => {
    for (const client of clients) client.disconnect();
    await server?.stop();
  });

  it('fails fast when killed, times out when hung, and recovers on restart without a new client', async () => {
    server = await ownRedis();
    await server.start();
    const redis = new Redis(server.url, resilientRedisOptions);
    redis.on('error', () => undefined);
    clients.push(redis);
    const guard = createOutageGuard({ cooldownMs: 200 });
    const store = guard.wrap({ get: (key: string) => redis.get(key), set: (key: string, value: string) => redis.set(key, value) });
    await waitFor(() => redis.status === 'ready', 10_000);
    await store.set('outage-test', 'yes');

    // Hung (SIGSTOP): the command times out and maps to 503.
    server.hang();
    await expect(store.get('outage-test')).rejects.toBeInstanceOf(StoreUnavailableError);
    server.resume();
    await waitFor(async () => (await store.get('outage-test').catch(() => null)) === 'yes', 10_000);

    // Killed: 503 at once, then restarted empty: the same client answers again.
    await server.stop();
    await expect(store.get('outage-test')).rejects.toMatchObject({ statusCode: 503 });
    await server.start();
    await waitFor(async () => (await store.get('outage-test').catch(() => 'down')) === null, 15_000);
  }, 30_000);
});

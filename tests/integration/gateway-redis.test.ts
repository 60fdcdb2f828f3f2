/**
 * The gateway over Redis through the whole stack: a build published to Redis takes effect
 * within a second; Redis going away leaves the gateway serving its last build (readiness
 * degraded) and it reconnects by itself when Redis is back. The test's own build supersedes the
 * renderer's, so a Redis restarted empty gets no build back from that renderer (no rollback by
 * restart): the gateway keeps serving the last one it knew until the next publish.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisBuildStore, type BuildMeta, type BuildStore } from '@tern/shared/build-store';
import { normalizeRouteRules } from '@tern/shared/route-rules/route-rules';
import { ownRedis, redisServerInstalled, type OwnRedis } from '../support/redis.js';
import { waitFor } from '../support/wait-for.js';
import { startStack, type Stack } from '../support/stack.js';

const installed = redisServerInstalled();
if (!installed) console.warn('skipping the gateway Redis suite: redis-server is not installed');

const meta = (id: string, to: string): BuildMeta => ({
  id,
  timestamp: Date.now(),
  matcher: normalizeRouteRules({ '/moved': { redirect: { to, statusCode: 301 } } }),
  prerendered: [],
});

describe.skipIf(!installed)('the gateway over Redis, through the stack', () => {
  let redis: OwnRedis, stack: Stack, store: BuildStore;
  const latestId = async () => ((await (await fetch(`${stack.url}/_nuxt/builds/latest.json`)).json()) as { id?: string }).id;
  type Readiness = { status: string; checks: Record<string, string>; reasons?: Record<string, string> };
  const readiness = async (url = stack.url) => (await (await fetch(`${url}/readyz`)).json()) as Readiness;

  beforeAll(async () => {
    redis = await ownRedis();
    await redis.start();
    stack = await startStack({ redis: true, redisUrl: redis.url });
    store = createRedisBuildStore({ url: redis.url, prefix: stack.redisPrefix! });
  });
  afterAll(async () => {
    await store?.close();
    await stack?.stop();
    await redis?.stop();
  });

  it('follows a build published to Redis within a second', async () => {
    expect((await store.current())?.id).toBe(await latestId()); // the renderer's build
    await store.publish(meta('redis-a', '/category/rust'));
    expect(await waitFor(async () => (await latestId()) === 'redis-a', 1000)).toBeLessThanOrEqual(1000);
    expect((await fetch(`${stack.url}/moved`, { redirect: 'manual' })).headers.get('location')).toBe('/category/rust');
    // The renderer checks its build's place every second; until it has seen redis-a, a restart
    // of Redis would have it publish its own build again, and the next tests would race it.
    const superseded = async () => /superseded/.test((await readiness(stack.serviceUrl('renderer'))).reasons?.buildStore ?? '');
    await waitFor(superseded, 5000);
  });

  it('keeps serving the last build while Redis is down, and says degraded', async () => {
    await redis.stop();
    expect(await latestId()).toBe('redis-a');
    expect((await fetch(`${stack.url}/moved`, { redirect: 'manual' })).headers.get('location')).toBe('/category/rust');
    expect((await fetch(`${stack.url}/_nuxt/builds/meta/redis-a.json`)).status).toBe(200);
    const ready = await readiness();
    expect(ready.checks.store).toBe('degraded');
    expect(ready.status).not.toBe('ready');
  });

  it('reconnects by itself when Redis is back', async () => {
    await redis.start();
    // Redis is back empty: the gateway reaches it, finds no build, and keeps serving redis-a.
    await waitFor(async () => /holds no current build/.test((await readiness()).reasons?.store ?? ''), 10_000);
    expect(await latestId()).toBe('redis-a');
    await store.publish(meta('redis-b', '/category/go'));
    await waitFor(async () => (await latestId()) === 'redis-b', 3000);
    expect((await fetch(`${stack.url}/moved`, { redirect: 'manual' })).headers.get('location')).toBe('/category/go');
    await waitFor(async () => (await readiness()).checks.store === 'ok', 3000);
  }, 20_000);
});

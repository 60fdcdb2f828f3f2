import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { createRedisBuildStore, type BuildStore } from '@tern/shared/build-store';
import { ownRedis, redisServerInstalled, type OwnRedis } from '../../../tests/support/redis.js';
import { waitFor } from '../../../tests/support/wait-for.js';
import { buildGatewayApp, type GatewayApp } from './app.js';
import { parseGatewayConfig } from './config.js';
import { metaOf, startUpstream, type Upstream } from './test-support/upstreams.js';

const installed = redisServerInstalled();
if (!installed) console.warn('skipping the gateway Redis outage test: redis-server is not installed');

describe.skipIf(!installed)('the gateway over a Redis build store that goes away and comes back', () => {
  let redis: OwnRedis, renderer: Upstream, publisher: BuildStore, gateway: GatewayApp;

  beforeAll(async () => {
    redis = await ownRedis();
    await redis.start();
    renderer = await startUpstream('renderer');
    publisher = createRedisBuildStore({ url: redis.url, prefix: 'gw-test:' });
    await publisher.publish(metaOf('redis-one', { '/old': { redirect: '/one' } }, 1));
    const config = parseGatewayConfig({
      RENDERER_URL: renderer.url,
      IMAGE_URL: renderer.url,
      ICONS_URL: renderer.url,
      REDIS_URL: redis.url,
      REDIS_PREFIX: 'gw-test:',
      BUILD_POLL_MS: '200',
      HEALTH_TIMEOUT_MS: '300',
    });
    gateway = await buildGatewayApp(config, { logger: pino({ level: 'silent' }) });
  }, 20_000);
  afterAll(async () => {
    await gateway?.app.close();
    await publisher?.close();
    await renderer?.app.close();
    await redis?.stop();
  });

  const latestId = async () => (await gateway.app.inject({ url: '/_nuxt/builds/latest.json' })).json().id as string;

  it('serves the published build from Redis', async () => {
    expect(await latestId()).toBe('redis-one');
    expect((await gateway.app.inject({ url: '/readyz' })).json().checks.store).toBe('ok');
  });

  it('keeps serving the last build while Redis is down, and says degraded', async () => {
    await redis.stop();
    const ready = await gateway.app.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ status: 'degraded', checks: { store: 'degraded' } });
    expect(await latestId()).toBe('redis-one');
    expect((await gateway.app.inject({ url: '/old' })).headers.location).toBe('/one');
    expect((await gateway.app.inject({ url: '/_nuxt/builds/meta/redis-one.json' })).json().id).toBe('redis-one');
    expect((await gateway.app.inject({ url: '/page/1' })).statusCode).toBe(200);
  });

  it('reconnects by itself when Redis is back and follows the next build', async () => {
    await redis.start();
    // Redis came back empty: reachable, but degraded until a build is published again.
    await waitFor(
      async () => (await publisher.ping()) && (await gateway.app.inject({ url: '/readyz' })).json().checks.store === 'degraded',
      5000,
      50,
    );
    await publisher.publish(metaOf('redis-two', { '/old': { redirect: '/two' } }, 2));
    await waitFor(async () => (await gateway.app.inject({ url: '/readyz' })).json().checks.store === 'ok', 5000, 50);
    await waitFor(async () => (await latestId()) === 'redis-two', 3000, 50);
    expect((await gateway.app.inject({ url: '/old' })).headers.location).toBe('/two');
  }, 15_000);
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capturingLogger, metaOf, startGateway, startUpstream, type TestGateway, type Upstream } from './test-support/upstreams.js';
import { routeRules as siteRules } from 'cookbook/route-rules';
import { waitFor } from '../../../tests/support/wait-for.js';

describe('route rules and build files at the gateway', () => {
  let renderer: Upstream, gateway: TestGateway;
  const first = metaOf('build-one', siteRules, 1000);

  beforeAll(async () => {
    renderer = await startUpstream('renderer');
    gateway = await startGateway({ RENDERER_URL: renderer.url, IMAGE_URL: renderer.url, ICONS_URL: renderer.url }, first);
  });
  afterAll(async () => {
    await gateway.cleanup();
    await renderer.app.close();
  });

  it.each([
    ['/home', 301, '/'],
    ['/home?ref=a', 301, '/?ref=a'],
    ['/categories/rust', 308, '/category/rust'],
    ['/categories/rust/async?page=2', 308, '/category/rust/async?page=2'],
    // The canonical path first (no rule sees `//`), then the rule on it: never another host.
    ['/categories//evil.example', 308, '/categories/evil.example'],
    ['/categories/evil.example', 308, '/category/evil.example'],
    ['/source', 302, 'https://example.com/source'],
  ])('redirects %s with %i to %s before any upstream sees it', async (url, status, location) => {
    const before = renderer.seen.length;
    const response = await gateway.app.inject({ url });
    expect(response.statusCode).toBe(status);
    expect(response.headers.location).toBe(location);
    expect(response.body).toContain('http-equiv="refresh"');
    expect(renderer.seen.length).toBe(before);
  });

  it('applies robots: false and the /_nuxt/** cache headers to proxied answers', async () => {
    expect((await gateway.app.inject({ url: '/login' })).headers['x-robots-tag']).toBe('noindex');
    expect((await gateway.app.inject({ url: '/' })).headers['x-robots-tag']).toBeUndefined();
    const asset = await gateway.app.inject({ url: '/_nuxt/entry.abc123.js' });
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('serves latest.json with a one-second cache', async () => {
    const response = await gateway.app.inject({ url: '/_nuxt/builds/latest.json' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: 'build-one', timestamp: 1000 });
    expect(response.headers['cache-control']).toBe('public, max-age=1, must-revalidate');
  });

  it('serves the meta of a build, immutable', async () => {
    const response = await gateway.app.inject({ url: '/_nuxt/builds/meta/build-one.json' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(first);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it.each([
    '/_nuxt/builds/meta/nope.json',
    '/_nuxt/builds/meta/..%2F..%2Fetc.json',
    '/_nuxt/builds/meta/build-one',
    '/_nuxt/builds/meta/a%00b.json',
  ])('answers 404 in the JSON shape for %s', async (url) => {
    const response = await gateway.app.inject({ url });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ statusCode: 404, url });
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('follows a new build within a second, applies its rules and keeps the old meta', async () => {
    await gateway.store.publish(metaOf('build-two', { '/fresh': { redirect: '/new' }, '/home': { redirect: '/welcome' } }, 2000));
    const took = await waitFor(
      async () => (await gateway.app.inject({ url: '/_nuxt/builds/latest.json' })).json().id === 'build-two',
      1000,
      20,
    );
    expect(took).toBeLessThan(1000);
    const fresh = await gateway.app.inject({ url: '/fresh' });
    expect([fresh.statusCode, fresh.headers.location]).toEqual([307, '/new']);
    expect((await gateway.app.inject({ url: '/home' })).headers.location).toBe('/welcome');
    expect((await gateway.app.inject({ url: '/source' })).statusCode).toBe(200); // the old rule is gone
    expect((await gateway.app.inject({ url: '/_nuxt/builds/meta/build-one.json' })).json().id).toBe('build-one');
  });

  it('logs one access line per request with the upstream it chose', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const { pino } = await import('pino');
    const { buildGatewayApp } = await import('./app.js');
    const { parseGatewayConfig } = await import('./config.js');
    const stream = { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) };
    const logged = await buildGatewayApp(
      parseGatewayConfig({ RENDERER_URL: renderer.url, IMAGE_URL: renderer.url, ICONS_URL: renderer.url }),
      { logger: pino({ level: 'info' }, stream), store: gateway.store },
    );
    await logged.app.inject({ url: '/recipes?x=1', headers: { 'x-request-id': 'abc-1' } });
    await logged.app.inject({ url: '/fresh' });
    await logged.app.close();
    const access = lines.filter((line) => line.msg === 'request');
    expect(access).toHaveLength(2);
    // One line per request, not the proxy's own "fetching"/"response received" besides it.
    expect(lines.filter((line) => line.reqId === 'abc-1')).toHaveLength(1);
    expect(access[0]).toMatchObject({ reqId: 'abc-1', method: 'GET', path: '/recipes?x=1', status: 200, upstream: 'renderer' });
    expect(access[0]!.durationMs).toEqual(expect.any(Number));
    expect(access[1]).toMatchObject({ path: '/fresh', status: 307, upstream: 'redirect' });
  });
});

describe('a configurable assets prefix', () => {
  it('serves the build files under ASSETS_PREFIX', async () => {
    const renderer = await startUpstream('renderer');
    const gateway = await startGateway({ RENDERER_URL: renderer.url, ASSETS_PREFIX: '/assets/' }, metaOf('p1', {}, 5));
    try {
      expect((await gateway.app.inject({ url: '/assets/builds/latest.json' })).json()).toEqual({ id: 'p1', timestamp: 5 });
      expect((await gateway.app.inject({ url: '/_nuxt/builds/latest.json' })).json()).toEqual({
        name: 'renderer',
        url: '/_nuxt/builds/latest.json',
      });
    } finally {
      await gateway.cleanup();
      await renderer.app.close();
    }
  });

  it('answers 503 for latest.json before any build is published', async () => {
    const renderer = await startUpstream('renderer');
    const gateway = await startGateway({ RENDERER_URL: renderer.url });
    try {
      const response = await gateway.app.inject({ url: '/_nuxt/builds/latest.json' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({ statusCode: 503 });
    } finally {
      await gateway.cleanup();
      await renderer.app.close();
    }
  });
});

describe('a published build that cannot be applied', () => {
  it('leaves the last good build in place', async () => {
    const renderer = await startUpstream('renderer');
    const { logger, lines } = capturingLogger();
    const gateway = await startGateway({ RENDERER_URL: renderer.url }, metaOf('good', { '/x': { redirect: '/good' } }, 1), logger);
    try {
      const broken = { ...metaOf('broken', {}, 2), matcher: { '/y': { headers: { a: 'b' } }, '/a/**/b/**': {} } };
      await gateway.store.publish(broken);
      // The gateway has read the broken build and refused it.
      await waitFor(() => lines.some((line) => line.msg === 'build not applied' && line.buildId === 'broken'), 5000);
      expect((await gateway.app.inject({ url: '/_nuxt/builds/latest.json' })).json().id).toBe('good');
      expect((await gateway.app.inject({ url: '/x' })).headers.location).toBe('/good');
      expect(gateway.build.storeReachable()).toBe(true);
    } finally {
      await gateway.cleanup();
      await renderer.app.close();
    }
  });
});

describe('a published build whose session cookie is no cookie name', () => {
  it('is refused like a broken one: the last good build and its session cookie stay', async () => {
    const renderer = await startUpstream('renderer');
    const { logger, lines } = capturingLogger();
    const gateway = await startGateway({ RENDERER_URL: renderer.url }, metaOf('good', {}, 1, { sessionCookie: 'sid' }), logger);
    try {
      await gateway.store.publish({ ...metaOf('odd', {}, 2), sessionCookie: 'a b; c' });
      await waitFor(() => lines.some((line) => line.msg === 'build not applied' && line.buildId === 'odd'), 5000);
      expect([gateway.build.info()?.id, gateway.build.sessionCookie()]).toEqual(['good', 'sid']);
    } finally {
      await gateway.cleanup();
      await renderer.app.close();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import {
  closedPortUrl,
  LONG_PAGE,
  metaOf,
  PAGE,
  startGateway,
  startUpstream,
  type TestGateway,
  type Upstream,
} from './test-support/upstreams.js';

describe('gateway proxying to real upstreams', () => {
  let renderer: Upstream, image: Upstream, icons: Upstream, gateway: TestGateway;

  beforeAll(async () => {
    [renderer, image, icons] = await Promise.all([startUpstream('renderer'), startUpstream('image'), startUpstream('icons')]);
    gateway = await startGateway(
      { RENDERER_URL: renderer.url, IMAGE_URL: image.url, ICONS_URL: icons.url },
      metaOf('b1', {
        '/page/**': { headers: { 'x-rule': 'page', 'cache-control': 'public, max-age=60' } },
        '/status/**': { headers: { 'cache-control': 'immutable' } },
      }),
    );
  });
  afterAll(async () => {
    await gateway.cleanup();
    await Promise.all([renderer.app.close(), image.app.close(), icons.app.close()]);
  });

  it.each([
    ['/_ipx/w_200/cover.jpg', 'image'],
    ['/api/_nuxt_icon/lucide.json?icons=a,b', 'icons'],
    ['/api/_nuxt_icon', 'icons'],
    ['/category/rust', 'renderer'],
    ['/', 'renderer'],
    ['/api/recipes', 'renderer'],
  ])('%s goes to the %s service with its path and query', async (url, name) => {
    const response = await gateway.app.inject({ url });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ name, url });
  });

  it('sets X-Forwarded-* itself, overwriting what the client sent, and passes the request id', async () => {
    const response = await gateway.app.inject({
      url: '/forwarded',
      headers: { host: 'site.example', 'x-forwarded-for': '6.6.6.6', 'x-forwarded-host': 'evil.example', 'x-request-id': 'req-42' },
    });
    expect(response.headers['x-request-id']).toBe('req-42');
    const sent = renderer.seen.find((s) => s.url === '/forwarded')!.headers;
    expect(sent['x-forwarded-for']).toBe('127.0.0.1');
    expect(sent['x-forwarded-host']).toBe('site.example');
    expect(sent['x-forwarded-proto']).toBe('http');
    expect(sent['x-request-id']).toBe('req-42');
  });

  it('makes a request id when the client sends none and hands the same one upstream', async () => {
    const response = await gateway.app.inject({ url: '/made-id' });
    const id = response.headers['x-request-id'];
    expect(id).toMatch(/^[\w-]{8,}$/);
    expect(renderer.seen.find((s) => s.url === '/made-id')!.headers['x-request-id']).toBe(id);
  });

  it('compresses proxied text with br or gzip when the client accepts it', async () => {
    const br = await gateway.app.inject({ url: '/page/1', headers: { 'accept-encoding': 'br, gzip' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(PAGE);
    const gz = await gateway.app.inject({ url: '/page/2', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(PAGE);
    const plain = await gateway.app.inject({ url: '/page/3' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(PAGE);
  });

  it('compresses a page sent whole in one piece with its length declared, and a streamed page as it streams', async () => {
    for (const encoding of ['br', 'gzip']) {
      const decode = encoding === 'br' ? brotliDecompressSync : gunzipSync;
      const whole = await gateway.app.inject({ url: '/long/whole', headers: { 'accept-encoding': encoding } });
      expect(whole.headers['content-encoding']).toBe(encoding);
      expect(whole.headers['content-length']).toBe(String(whole.rawPayload.length));
      expect(decode(whole.rawPayload).toString()).toBe(LONG_PAGE);
      const streamed = await gateway.app.inject({ url: '/long/streamed', headers: { 'accept-encoding': encoding } });
      expect(streamed.headers['content-encoding']).toBe(encoding);
      expect(streamed.headers['content-length']).toBeUndefined();
      expect(decode(streamed.rawPayload).toString()).toBe(LONG_PAGE);
    }
  });

  it('applies headers rules to proxied answers, never to errors', async () => {
    const ok = await gateway.app.inject({ url: '/page/x' });
    expect(ok.headers['x-rule']).toBe('page');
    expect(ok.headers['cache-control']).toBe('public, max-age=60');
    const missing = await gateway.app.inject({ url: '/status/404' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['cache-control']).not.toBe('immutable');
  });

  it('adds the security headers to every answer, HSTS only over https', async () => {
    for (const url of ['/page/1', '/healthz', '/_nuxt/builds/latest.json', '/status/500']) {
      const response = await gateway.app.inject({ url });
      expect(response.headers['x-content-type-options'], url).toBe('nosniff');
      expect(response.headers['referrer-policy'], url).toBe('strict-origin-when-cross-origin');
      expect(response.headers['x-frame-options'], url).toBe('SAMEORIGIN');
      expect(response.headers['strict-transport-security'], url).toBeUndefined();
    }
    // TRUST_PROXY is off: a client's claim of https changes nothing (forwarded.test.ts has the trusted case).
    const claimed = await gateway.app.inject({ url: '/page/1', headers: { 'x-forwarded-proto': 'https' } });
    expect(claimed.headers['strict-transport-security']).toBeUndefined();
  });

  it('passes upstream error statuses through as they are', async () => {
    const response = await gateway.app.inject({ url: '/status/503' });
    expect(response.statusCode).toBe(503);
    expect(renderer.seen.filter((s) => s.url === '/status/503')).toHaveLength(1); // no retry storm
  });
});

describe('gateway when an upstream fails', () => {
  let slow: Upstream, gateway: TestGateway;

  beforeAll(async () => {
    slow = await startUpstream('icons', 2000);
    gateway = await startGateway({
      RENDERER_URL: await closedPortUrl(),
      IMAGE_URL: await closedPortUrl(),
      ICONS_URL: slow.url,
      UPSTREAM_TIMEOUT_MS: '300',
    });
  });
  afterAll(async () => {
    await gateway.cleanup();
    // The slow answer is still being prepared; closing waits for it unless its connection goes first.
    slow.app.server.closeAllConnections();
    await slow.app.close();
  });

  it('answers 502 in the JSON shape when the connection is refused', async () => {
    const response = await gateway.app.inject({ url: '/_ipx/w_10/a.png' });
    expect(response.statusCode).toBe(502);
    expect(response.json()).toMatchObject({ statusCode: 502, statusMessage: 'Bad Gateway', url: '/_ipx/w_10/a.png' });
  });

  // A renderer that never answered is one still starting (renderer-startup.test.ts: once it has, a 502).
  it('answers 503 with the error page for a browser while no renderer ever answered', async () => {
    const response = await gateway.app.inject({ url: '/', headers: { accept: 'text/html' } });
    expect(response.statusCode).toBe(503);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.body).toContain('Service unavailable, try again');
    expect(response.body).not.toContain('Internal Server Error');
  });

  it('answers 504 when the upstream is too slow', async () => {
    const started = Date.now();
    const response = await gateway.app.inject({ url: '/api/_nuxt_icon/lucide.json?icons=x' });
    expect(response.statusCode).toBe(504);
    expect(response.json()).toMatchObject({ statusCode: 504, statusMessage: 'Gateway Timeout' });
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('stays ready but degraded, with the reasons, while the renderer is down and the image service slow', async () => {
    const response = await gateway.app.inject({ url: '/readyz' });
    // Ready means "can serve": icons, client files and build files still answer.
    expect(response.statusCode).toBe(200);
    // The store answers but holds no build yet (as after Redis restarted empty): not 'ok'.
    expect(response.json()).toMatchObject({
      status: 'degraded',
      checks: { renderer: 'degraded', image: 'degraded', store: 'degraded', serving: 'ok' },
      reasons: { renderer: expect.stringMatching(/ECONNREFUSED/), store: expect.stringMatching(/no current build/) },
    });
  });

  it('reports the store ok once it holds a build again', async () => {
    await gateway.store.publish(metaOf('after-loss', {}));
    await gateway.build.refresh();
    const response = await gateway.app.inject({ url: '/readyz' });
    expect(response.json().checks).toMatchObject({ store: 'ok' });
  });
});

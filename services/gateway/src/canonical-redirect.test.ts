/**
 * Other spellings of a page at the gateway: a 308 to the canonical path (packages/shared/src/http/canonical-path.ts)
 * for GET and HEAD of pages and payloads, before any rule (a rule only ever sees the canonical
 * path); never for assets, the API, images, file names or other methods.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metaOf, startGateway, startUpstream, type TestGateway, type Upstream } from './test-support/upstreams.js';

describe('canonical redirects at the gateway', () => {
  let upstream: Upstream;
  let gateway: TestGateway;
  beforeAll(async () => {
    upstream = await startUpstream('renderer');
    const env = { RENDERER_URL: upstream.url, IMAGE_URL: upstream.url, ICONS_URL: upstream.url, RENDER_CACHE: 'false' };
    gateway = await startGateway(env, metaOf('canon', { '/old/**': { redirect: '/new/**' } }));
  });
  afterAll(async () => {
    await gateway.cleanup();
    await upstream.app.close();
  });

  const ask = (url: string, method: 'GET' | 'HEAD' | 'POST' = 'GET') => gateway.app.inject({ method, url });

  it.each([
    ['/category/gi%74', '/category/git'],
    ['/category/git/', '/category/git'],
    ['/%63ategory/git/?q=1&r=%41', '/category/git?q=1&r=%41'],
    ['/category/gi%74/_payload.json?abc', '/category/git/_payload.json?abc'],
    ['/a%2fb/', '/a%2Fb'],
    // (inject resolves dot segments and drops fragments itself: those spellings are sent raw in
    // tests/integration/http-edge-attacks.test.ts)
    ['/category/git\\', '/category/git'],
    ['/category/git//_payload.json', '/category/git/_payload.json'],
  ])('sends %s to %s with a 308', async (url, location) => {
    for (const method of ['GET', 'HEAD'] as const) {
      const answer = await ask(url, method);
      expect([method, answer.statusCode, answer.headers.location]).toEqual([method, 308, location]);
    }
  });

  it('leaves canonical paths, other methods, files, assets, images and the API alone', async () => {
    for (const url of ['/category/git', '/CATEGORY/git', '/images/Photo.JPG', '/_nuxt/entry.A1.js', '/_ipx/w_10/a%2Fb/', '/api/x/']) {
      expect([url, (await ask(url)).statusCode]).not.toEqual([url, 308]);
    }
    expect((await ask('/category/gi%74', 'POST')).statusCode).not.toBe(308);
  });

  it('lets a redirect rule answer the canonical path, with its own target', async () => {
    expect((await ask('/old/x/')).headers.location).toBe('/old/x');
    const answer = await ask('/old/x');
    expect(answer.statusCode).toBe(307);
    expect(answer.headers.location).toBe('/new/x');
  });
});

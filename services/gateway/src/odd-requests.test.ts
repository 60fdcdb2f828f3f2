import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metaOf, startGateway, startUpstream, type TestGateway, type Upstream } from './test-support/upstreams.js';

describe('odd request paths never give a 500 nor reach another host', () => {
  let renderer: Upstream, gateway: TestGateway;
  beforeAll(async () => {
    renderer = await startUpstream('renderer');
    gateway = await startGateway(
      { RENDERER_URL: renderer.url, IMAGE_URL: renderer.url, ICONS_URL: renderer.url },
      metaOf('o1', { '/old/**': { redirect: '/**' } }),
    );
  });
  afterAll(async () => {
    await gateway.cleanup();
    await renderer.app.close();
  });

  it.each([
    '/%',
    '/%E0%A4%A',
    '/a/../../etc/passwd',
    '/a/%2e%2e/%2e%2e/x',
    '//evil.example/x',
    '/old/%',
    '/old/%E0%A4%A',
    '/_nuxt/builds/meta/%.json',
  ])('%s', async (url) => {
    const response = await gateway.app.inject({ url, headers: { accept: 'application/json' } });
    expect(response.statusCode, response.body).toBeLessThan(500);
    if (response.statusCode >= 400) expect(response.json()).toMatchObject({ statusCode: response.statusCode });
    if (response.statusCode === 200) expect(response.json()).toMatchObject({ name: 'renderer' });
    const location = response.headers.location;
    if (typeof location === 'string') expect(location).toMatch(/^\/(?![/\\])/);
  });
});

/** The gateway's /readyz: degraded with reasons while it can serve, 503 only when it can serve nothing. */
import { afterEach, describe, expect, it } from 'vitest';
import { closedPortUrl, metaOf, startGateway, startUpstream, type TestGateway, type Upstream } from './test-support/upstreams.js';

describe('gateway readiness', () => {
  const open: Array<TestGateway | Upstream> = [];
  afterEach(async () => {
    for (const item of open.splice(0)) await ('cleanup' in item ? item.cleanup() : item.app.close());
  });
  const allDown = async () => ({ RENDERER_URL: await closedPortUrl(), IMAGE_URL: await closedPortUrl(), ICONS_URL: await closedPortUrl() });

  it('is unready (503) when no upstream answers and it holds no page of its own', async () => {
    const gateway = await startGateway({ ...(await allDown()), RENDER_CACHE: 'false' }, metaOf('b1', {}));
    open.push(gateway);
    const response = await gateway.app.inject({ url: '/readyz' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({
      status: 'down',
      checks: { renderer: 'degraded', image: 'degraded', icons: 'degraded', store: 'ok', serving: 'down' },
      reasons: { serving: expect.stringMatching(/no renderer, image or icon service answers/) },
    });
  });

  it('stays ready while it has prerendered pages to serve, and while any upstream answers', async () => {
    const prerendered = { ...metaOf('b2', {}), prerendered: ['/about'] };
    const gateway = await startGateway(await allDown(), prerendered);
    open.push(gateway);
    const own = await gateway.app.inject({ url: '/readyz' });
    expect([own.statusCode, own.json().checks.serving]).toEqual([200, 'ok']);

    const icons = await startUpstream('icons');
    open.push(icons);
    const withIcons = await startGateway({ ...(await allDown()), RENDER_CACHE: 'false', ICONS_URL: icons.url }, metaOf('b3', {}));
    open.push(withIcons);
    const response = await withIcons.app.inject({ url: '/readyz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'degraded', checks: { renderer: 'degraded', icons: 'ok', serving: 'ok' } });
  });
});

/**
 * Just after start, a request waits a moment for the gateway's first build, so it gets the build's
 * route rules (first-build.ts); past the wait, and on health paths, nothing waits. A real gateway
 * over a file build store and a real upstream: no mocks.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { capturingLogger, metaOf, startGateway, startUpstream, type TestGateway, type Upstream } from './test-support/upstreams.js';

describe('requests just after start, before the first build', () => {
  let renderer: Upstream | undefined;
  let gateway: TestGateway | undefined;
  afterEach(async () => {
    await gateway?.cleanup();
    await renderer?.app.close();
  });

  async function start(waitMs: number, log = capturingLogger()) {
    renderer = await startUpstream('renderer');
    gateway = await startGateway(
      { RENDERER_URL: renderer.url, IMAGE_URL: renderer.url, ICONS_URL: renderer.url, FIRST_BUILD_WAIT_MS: String(waitMs) },
      undefined,
      log.logger,
    );
    return { renderer, gateway, log };
  }

  it('waits for the build published after the gateway started, and answers with its rules', async () => {
    const { renderer, gateway } = await start(5000);
    // The renderer publishes its build a moment after the gateway is up, as at `npm start`.
    setTimeout(() => void gateway.store.publish(metaOf('late', { '/old': { redirect: '/new' } })), 300);
    const started = Date.now();
    const response = await gateway.app.inject({ url: '/old' });
    expect(response.statusCode).toBe(307);
    expect(response.headers.location).toBe('/new');
    expect(renderer.seen).toEqual([]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });

  it('goes on without rules once the wait is over, with one warning, and does not wait again', async () => {
    const { renderer, gateway, log } = await start(300);
    const first = await gateway.app.inject({ url: '/old' });
    expect(first.statusCode).toBe(200);
    expect(renderer.seen).toHaveLength(1);
    await gateway.app.inject({ url: '/other' });
    expect(renderer.seen).toHaveLength(2);
    expect(log.lines.filter((line) => line.msg === 'no build known yet: answering without its route rules')).toHaveLength(1);
  });

  it('never holds a health check', async () => {
    const { gateway } = await start(5000);
    const started = Date.now();
    const response = await gateway.app.inject({ url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

/**
 * The gateway before its renderer has ever answered (issue 31.9): a refused renderer is one still
 * starting, so a page is 503 with Retry-After and a line saying so (JSON for JSON clients), logged
 * at info with no stack; once a renderer has answered, a refusal is an outage again (502).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../../tests/support/free-port.js';
import { capturingLogger, metaOf, startGateway, startUpstream, type TestGateway, type Upstream } from './test-support/upstreams.js';

describe('the gateway while its renderer starts', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function gatewayBefore(rendererPort: number): Promise<{ gateway: TestGateway; lines: Array<Record<string, unknown>> }> {
    const { logger, lines } = capturingLogger();
    const url = `http://127.0.0.1:${rendererPort}`;
    const gateway = await startGateway({ RENDERER_URL: url, IMAGE_URL: url, ICONS_URL: url }, metaOf('starting', {}), logger);
    cleanups.push(() => gateway.cleanup());
    return { gateway, lines };
  }

  it('answers pages 503 with Retry-After, the starting line and no ERROR, in both shapes', async () => {
    const { gateway, lines } = await gatewayBefore(await freePort());
    const page = await gateway.app.inject({ url: '/category/git', headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(503);
    expect(page.headers['retry-after']).toBe('2');
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('The site is starting');
    expect(page.headers.vary).toContain('accept');
    expect(page.headers['cache-control']).toBe('no-store');
    const json = await gateway.app.inject({ url: '/category/git', headers: { accept: 'application/json' } });
    expect(json.statusCode).toBe(503);
    expect(json.json()).toMatchObject({ statusCode: 503, code: 'GW_STARTING', message: expect.stringContaining('starting') });
    const api = await gateway.app.inject({ url: '/api/categories' });
    expect(api.json()).toMatchObject({ statusCode: 503, code: 'GW_STARTING' });
    expect(lines.filter((line) => Number(line.level) >= 50)).toEqual([]);
    expect(JSON.stringify(lines)).not.toMatch(/"stack"|at \w+ \(/);
  });

  it('serves the renderer once it listens, and answers 502 when it is gone after that', async () => {
    const port = await freePort();
    const { gateway } = await gatewayBefore(port);
    expect((await gateway.app.inject({ url: '/api/x' })).statusCode).toBe(503);
    const renderer: Upstream = await startUpstream('renderer', 0, port);
    expect((await gateway.app.inject({ url: '/api/x' })).json()).toMatchObject({ name: 'renderer' });
    await renderer.app.close();
    expect((await gateway.app.inject({ url: '/api/x' })).statusCode).toBe(502);
  });
});

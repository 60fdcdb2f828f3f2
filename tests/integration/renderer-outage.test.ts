/**
 * Ready means "can serve" (issue 23): with the renderer down, the gateway stays in its Service
 * (`/readyz` 200, degraded, with the reason) and keeps serving what it needs no renderer for:
 * cached and prerendered pages, client files, images and icons. Only a page that has to be
 * rendered now fails. Local processes, as `npm start` runs them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../support/wait-for.js';
import { startStack, type Stack } from '../support/stack.js';

interface Readiness {
  status: string;
  checks: Record<string, string>;
  reasons?: Record<string, string>;
}

describe('the gateway while the renderer is down', () => {
  let stack: Stack;
  let clientFile = '';
  const get = async (path: string) => {
    const response = await fetch(`${stack.url}${path}`, { headers: { accept: 'text/html' }, signal: AbortSignal.timeout(5000) });
    await response.arrayBuffer();
    return response;
  };
  const readiness = async () => {
    const response = await fetch(`${stack.url}/readyz`);
    return { code: response.status, body: (await response.json()) as Readiness };
  };
  const cached = ['/', '/category/git', '/about'];
  const served = () => [...cached, clientFile, '/_ipx/w_100/images/categories/git.jpg', '/api/_nuxt_icon/lucide.json?icons=sun'];

  beforeAll(async () => {
    stack = await startStack();
    const home = await (await fetch(`${stack.url}/`, { headers: { accept: 'text/html' } })).text();
    clientFile = /(\/_nuxt\/[\w.-]+\.js)"/.exec(home)![1]!;
    // Warm the render cache (home is swr, categories isr; /about is prerendered at build time).
    for (const path of cached)
      await waitFor(async () => ['HIT', 'STALE'].includes((await get(path)).headers.get('x-cache') ?? ''), 10_000, 100);
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it('stays ready (degraded, with the reason) and serves cached and prerendered pages, client files, images and icons', async () => {
    expect((await readiness()).body.status).toBe('ready');
    await stack.stopService('renderer', 'SIGKILL');
    const { code, body } = await readiness();
    expect(code).toBe(200);
    expect(body.status).toBe('degraded');
    expect(body.checks).toMatchObject({ renderer: 'degraded', image: 'ok', icons: 'ok', serving: 'ok' });
    expect(body.reasons?.renderer).toMatch(/ECONNREFUSED/);
    for (const path of served()) expect((await get(path)).status, path).toBe(200);
    // A page that must be rendered now is the one thing that fails.
    expect([502, 503]).toContain((await get('/login')).status);
  }, 60_000);

  it('stays ready with every upstream down while it holds cached pages, and is ready again once they are back', async () => {
    // Image and icons down too: cached pages still answer, so the gateway still serves.
    await Promise.all([stack.stopService('image', 'SIGKILL'), stack.stopService('icons', 'SIGKILL')]);
    const { code, body } = await readiness();
    expect(code).toBe(200);
    expect(body.checks).toMatchObject({ renderer: 'degraded', image: 'degraded', icons: 'degraded', serving: 'ok' });
    expect((await get('/category/git')).status).toBe(200);
    await Promise.all((['renderer', 'image', 'icons'] as const).map((name) => stack.startService(name)));
    await waitFor(async () => (await readiness()).body.status === 'ready', 20_000, 100);
    expect((await get('/login')).status).toBe(200);
  }, 90_000);
});

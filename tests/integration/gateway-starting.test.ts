/**
 * No 502 while the stack starts (issue 31.9): a gateway started before its renderer listens answers
 * pages with 503, Retry-After and a page saying the site is starting (JSON for JSON clients), logs
 * no ERROR and no stack, and serves the renderer's pages once it is up, nothing restarted.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/free-port.js';
import { startProcess, type ServiceProcess } from '../support/processes.js';
import { waitFor } from '../support/wait-for.js';

const PERSON = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';

describe('the gateway started before its renderer', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  });

  it('answers 503 "starting" with Retry-After until the renderer is up, then its pages', { timeout: 90_000 }, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gateway-starting-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const [rendererPort, gatewayPort, nothing] = [await freePort(), await freePort(), await freePort()];
    const env = {
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      USERS_FILE: join(dir, 'users.json'),
      CACHE_DIR: join(dir, 'cache'),
      RENDERER_URL: `http://127.0.0.1:${rendererPort}`,
      IMAGE_URL: `http://127.0.0.1:${nothing}`,
      ICONS_URL: `http://127.0.0.1:${nothing}`,
    };
    const gateway: ServiceProcess = await startProcess('gateway', 'gateway', gatewayPort, env);
    cleanups.push(() => gateway.stop());

    for (const path of ['/', '/category/git', '/login']) {
      const page = await fetch(`${gateway.url}${path}`, { headers: { accept: 'text/html', 'user-agent': PERSON } });
      expect([path, page.status]).toEqual([path, 503]);
      expect(page.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(await page.text()).toContain('The site is starting');
    }
    const json = await fetch(`${gateway.url}/category/git`, { headers: { accept: 'application/json', 'user-agent': PERSON } });
    expect(json.status).toBe(503);
    expect(json.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await json.json()).toMatchObject({ statusCode: 503, code: 'GW_STARTING', url: '/category/git' });

    const renderer = await startProcess('renderer', 'renderer', rendererPort, env);
    cleanups.push(() => renderer.stop());
    await waitFor(
      async () => (await fetch(`${gateway.url}/category/git`, { headers: { accept: 'text/html' } })).status === 200,
      20_000,
      200,
    );

    const levels = gateway.logs.flatMap((line) => {
      try {
        return [JSON.parse(line) as { level: number; msg?: string }];
      } catch {
        return [];
      }
    });
    expect(levels.filter((line) => line.level >= 50)).toEqual([]);
    expect(gateway.logs.join('\n')).not.toMatch(/"stack"|\n\s+at /);
    expect(levels.some((line) => line.msg?.includes('renderer not started yet'))).toBe(true);
  });
});

/**
 * The render cache through the whole stack, embedded and with Redis: the site's own rules (home
 * and categories cached, /login not), payloads following their page's rule, renders counted at
 * the renderer, signed-in visitors bypassing, two gateway processes sharing one Redis, and Redis
 * killed under load without a single 5xx.
 */
import { request as httpRequest } from 'node:http';
import { Redis } from 'ioredis';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { projectRoot } from '@tern/shared/config/paths';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisAvailable, ownRedis, redisServerInstalled } from '../support/redis.js';
import { waitFor } from '../support/wait-for.js';
import { findFreeBasePort } from '@tern/cli/ports';
import { serviceEntry, waitForOk } from '@tern/cli/services';
import { startStack, type Stack } from '../support/stack.js';
import { DEMO, Visitor } from './site-support.js';

const hasRedis = await redisAvailable();
if (!hasRedis) console.warn('skipping the Redis render-cache tests: no Redis at 127.0.0.1:6379');

const PERSON = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';
/** fetch() always sends the URL's own Host; this sends the one given. */
function getWithHost(url: string, host: string): Promise<{ status: number; cache: string | undefined }> {
  return new Promise((resolve, reject) => {
    httpRequest(url, { headers: { host } }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0, cache: response.headers['x-cache'] as string | undefined }));
    })
      .on('error', reject)
      .end();
  });
}

const get = (url: string, headers: Record<string, string> = {}) =>
  fetch(url, { headers: { 'user-agent': PERSON, accept: 'text/html', ...headers } });

/** How many times the renderer answered this exact path (its access lines). */
function renders(stack: Stack, path: string): number {
  return stack.logs('renderer').filter((line) => line.includes(`"path":"${path}"`) && line.includes(`"msg":"request"`)).length;
}

/** Whether a page's entry is in the shared store and its render lock let go. */
async function sharedEntryWritten(stack: Stack, path: string): Promise<boolean> {
  const redis = new Redis(stack.redisUrl!, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    const [entries, locks] = await Promise.all([
      redis.keys(`${stack.redisPrefix}cache:*:${path}?*`),
      redis.keys(`${stack.redisPrefix}cache-lock:*:${path}?*`),
    ]);
    return entries.length > 0 && locks.length === 0;
  } finally {
    redis.disconnect();
  }
}

/** A second gateway process in front of the same renderer, image and icons services. */
async function secondGateway(stack: Stack): Promise<{ url: string; stop(): void }> {
  const port = await findFreeBasePort(1);
  const child: ChildProcess = spawn(process.execPath, [serviceEntry('gateway')], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      RENDERER_URL: stack.serviceUrl('renderer'),
      IMAGE_URL: stack.serviceUrl('image'),
      ICONS_URL: stack.serviceUrl('icons'),
      REDIS_URL: stack.redisUrl!,
      REDIS_PREFIX: stack.redisPrefix!,
    },
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForOk(`${url}/readyz`, 30_000);
  return { url, stop: () => child.kill('SIGTERM') };
}

describe.each([
  { mode: 'embedded', redis: false },
  { mode: 'Redis', redis: true },
])('render cache through the stack ($mode)', ({ redis }) => {
  let stack: Stack;
  beforeAll(async () => {
    if (redis && !hasRedis) return;
    stack = await startStack({ redis });
  });
  afterAll(() => stack?.stop());

  it.skipIf(redis && !hasRedis)('answers the home and category pages and their payloads from the cache', async () => {
    const first = await get(`${stack.url}/category/git`);
    expect(first.headers.get('x-cache')).toBe('MISS');
    const html = await first.text();
    for (let i = 0; i < 5; i++) expect((await get(`${stack.url}/category/git`)).headers.get('x-cache')).toBe('HIT');
    expect(renders(stack, '/category/git')).toBe(1);
    expect(html).toContain('data-category="git"');

    const buildId = (await (await fetch(`${stack.url}/_nuxt/builds/latest.json`)).json()) as { id: string };
    const payload = `/category/git/_payload.json?${buildId.id}`;
    expect((await get(`${stack.url}${payload}`, { accept: 'application/json' })).headers.get('x-cache')).toBe('MISS');
    expect((await get(`${stack.url}${payload}`, { accept: 'application/json' })).headers.get('x-cache')).toBe('HIT');

    expect((await get(`${stack.url}/`)).headers.get('x-cache')).toMatch(/^(MISS|HIT)$/);
    expect((await get(`${stack.url}/login`)).headers.get('x-cache')).toBe('BYPASS');
  });

  it.skipIf(redis && !hasRedis)('empties matching entries on `npm run cache -- purge`, in every gateway', async () => {
    await get(`${stack.url}/category/nodejs`);
    expect((await get(`${stack.url}/category/nodejs`)).headers.get('x-cache')).toBe('HIT');
    const env = redis
      ? { REDIS_URL: stack.redisUrl!, REDIS_PREFIX: stack.redisPrefix! }
      : { CACHE_DIR: join(dirname(stack.buildStoreDir!), 'render-cache'), REDIS_URL: '' };
    const cli = spawnSync(process.execPath, [join(projectRoot, 'packages', 'cli', 'dist', 'cache-cli.js'), 'purge', '/category/*'], {
      env: { ...process.env, ...env },
      encoding: 'utf8',
    });
    expect(cli.stdout).toMatch(/^purged [1-9]\d* cached entr(y|ies) matching \/category\/\*/);
    await waitFor(async () => (await get(`${stack.url}/category/nodejs`)).headers.get('x-cache') === 'MISS', 5000);
    const bad = spawnSync(process.execPath, [join(projectRoot, 'packages', 'cli', 'dist', 'cache-cli.js'), 'purge', 'category'], {
      encoding: 'utf8',
    });
    expect([bad.status, bad.stderr]).toEqual([2, expect.stringContaining('usage: npm run cache -- purge [pattern]')]);
  });

  it.skipIf(redis)('lets a signed-in visitor bypass the cache and see their name, on the same cached page', async () => {
    await get(`${stack.url}/`);
    expect((await get(`${stack.url}/`)).headers.get('x-cache')).toBe('HIT');
    const visitor = new Visitor(stack.url, { 'user-agent': PERSON });
    expect((await visitor.login(DEMO.email, DEMO.password)).status).toBe(200);
    const mine = await visitor.fetch('/', { headers: { accept: 'text/html' } });
    expect(mine.headers.get('x-cache')).toBe('BYPASS');
    expect(await mine.text()).toContain('Demo Cook');
    expect(await (await get(`${stack.url}/`)).text()).not.toContain('Demo Cook');
  });

  it.skipIf(redis)('serves prerendered pages and their payloads with the renderer stopped', async () => {
    await stack.stopService('renderer');
    try {
      const page = await get(`${stack.url}/about`);
      expect([page.status, page.headers.get('x-prerendered'), page.headers.get('x-cache')]).toEqual([200, 'true', 'HIT']);
      const html = await page.text();
      expect(html).toContain('About this cookbook');
      expect(html).not.toContain('nonce=');
      // Built with the public origin (PUBLIC_ORIGIN, else npm start's), not the build run's port.
      expect(html).not.toMatch(/rel="canonical" href="http:\/\/127\.0\.0\.1:/);
      expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self' 'sha256-/);
      const { id } = (await (await fetch(`${stack.url}/_nuxt/builds/latest.json`)).json()) as { id: string };
      const payload = await get(`${stack.url}/about/_payload.json?${id}`, { accept: 'application/json', 'accept-encoding': 'br' });
      expect([payload.status, payload.headers.get('content-encoding')]).toEqual([200, 'br']);
      expect(((await payload.json()) as { buildId: string }).buildId).toBe(id);
      expect((await get(`${stack.url}/category/zzz-not-cached`)).status).toBeGreaterThanOrEqual(502);
    } finally {
      await stack.startService('renderer');
    }
  });

  it.skipIf(!redis || !hasRedis)('shares one Redis cache between two gateway processes, and renders a herd once', async () => {
    const other = await secondGateway(stack);
    try {
      // Replicas behind one load balancer see one Host, and the origin a page names is in its key.
      const host = new URL(stack.url).host;
      expect((await getWithHost(`${other.url}/category/css`, host)).cache).toBe('MISS');
      // The visitor does not wait for the shared write: the entry is there once its render lock goes.
      await waitFor(() => sharedEntryWritten(stack, '/category/css'), 5000);
      expect((await getWithHost(`${stack.url}/category/css`, host)).cache).toBe('HIT');
      const herd = await Promise.all(
        Array.from({ length: 16 }, (_, i) => getWithHost(`${i % 2 ? other.url : stack.url}/category/docker`, host).then((r) => r.status)),
      );
      expect(herd.every((status) => status === 200)).toBe(true);
      await waitFor(() => renders(stack, '/category/docker') > 0, 5000);
      expect(renders(stack, '/category/docker')).toBe(1);
    } finally {
      other.stop();
    }
  });
});

const killable = redisServerInstalled() ? await ownRedis() : null;
if (!killable) console.warn('skipping the Redis-failure render-cache test: redis-server is not installed');

describe.runIf(killable)('render cache when Redis dies under load', () => {
  let stack: Stack;
  const redis = killable!;
  beforeAll(async () => {
    await redis.start();
    stack = await startStack({ redis: true, redisUrl: redis.url });
  });
  afterAll(async () => {
    await stack?.stop();
    await redis.stop();
  });

  it('keeps answering every page without a 5xx, from memory and the renderer', async () => {
    const paths = ['/', '/category/git', '/category/shell', '/category/http'];
    for (const path of paths) await get(`${stack.url}${path}`);
    const statuses: number[] = [];
    let running = true;
    const load = Promise.all(
      Array.from({ length: 6 }, async (_, worker) => {
        for (let i = 0; running; i++) statuses.push((await get(`${stack.url}${paths[(i + worker) % paths.length]}?n=${i % 3}`)).status);
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    await redis.stop();
    await new Promise((resolve) => setTimeout(resolve, 2500));
    running = false;
    await load;
    expect(statuses.length).toBeGreaterThan(50);
    expect(statuses.filter((status) => status >= 500)).toEqual([]);
  });
});

/**
 * Issue #2 through the gateway: SSR at `/`, health, an upstream down and back, the request id
 * reaching the upstream, and both build-store modes. The same suite runs against the
 * docker-compose stack where a container runtime answers.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisAvailable } from '../support/redis.js';
import { containerRuntimeReason, startStack, type Stack } from '../support/stack.js';

const runtimeReason = await containerRuntimeReason();
if (runtimeReason) console.warn(`skipping the Testcontainers run of the stack suite: ${runtimeReason}`);
const modes = runtimeReason ? (['local'] as const) : (['local', 'containers'] as const);

describe.each(modes)('the stack (%s)', (mode) => {
  let stack: Stack;
  // The containers mode builds the images first when this file is the first to need them.
  beforeAll(async () => {
    stack = await startStack({ mode });
  }, 600_000);
  afterAll(() => stack?.stop());

  it('server-renders / with the content inside the root element', async () => {
    const response = await fetch(`${stack.url}/`, { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/text\/html/);
    const html = await response.text();
    expect(html).toMatch(/^<!DOCTYPE html>/i);
    expect(html).toMatch(/<div id="root"[^>]*>\s*<[a-z]/i);
    expect(html).toContain('data-layout="default"');
  });

  it('reports every service healthy and the gateway ready', async () => {
    for (const path of ['/healthz', '/readyz']) {
      const response = await fetch(`${stack.url}${path}`);
      expect(response.status, path).toBe(200);
    }
    const ready = (await (await fetch(`${stack.url}/readyz`)).json()) as { checks: Record<string, string> };
    expect(Object.keys(ready.checks)).toEqual(expect.arrayContaining(['renderer', 'image', 'icons']));
  });

  it('proxies images and icons to their services', async () => {
    const icons = await fetch(`${stack.url}/api/_nuxt_icon/lucide.json?icons=sun`);
    expect(icons.status).toBe(200);
    expect(((await icons.json()) as { prefix: string }).prefix).toBe('lucide');
  });

  it('answers 502 within a second while the renderer is down (cached pages keep answering), and recovers without a gateway restart', async () => {
    await fetch(`${stack.url}/category/git`, { headers: { accept: 'text/html' } });
    await stack.stopService('renderer');
    try {
      const started = Date.now();
      // /login is never cached: it needs the renderer.
      const html = await fetch(`${stack.url}/login`, { headers: { accept: 'text/html' } });
      expect(Date.now() - started).toBeLessThan(1000);
      expect(html.status).toBe(502);
      expect(await html.text()).toContain('Service unavailable, try again');
      const json = await fetch(`${stack.url}/login`, { headers: { accept: 'application/json' } });
      expect(json.status).toBe(502);
      const body = (await json.json()) as Record<string, unknown>;
      expect(body).toMatchObject({ statusCode: 502, url: '/login' });
      // Production: which upstream failed and why is in the log only.
      expect(JSON.stringify(body)).not.toMatch(/renderer|ECONNREFUSED|UND_ERR/);
      // A body the gateway was streaming to the renderer is not the client's broken request: 502, not 400.
      const post = await fetch(`${stack.url}/api/auth/login`, {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/json', origin: stack.url },
        body: JSON.stringify({ email: 'nobody@example.com', password: 'not the password' }),
      });
      expect(post.status).toBe(502);
      const cached = await fetch(`${stack.url}/category/git`, { headers: { accept: 'text/html' } });
      expect([cached.status, cached.headers.get('x-cache')]).toEqual([200, 'HIT']);
    } finally {
      await stack.startService('renderer');
    }
    const again = await fetch(`${stack.url}/login`, { headers: { accept: 'text/html' } });
    expect(again.status).toBe(200);
  });

  it.runIf(mode === 'local')('carries the request id to the upstream, and makes one when absent', async () => {
    const id = `it-${Date.now()}`;
    const response = await fetch(`${stack.url}/login`, { headers: { 'x-request-id': id } });
    expect(response.headers.get('x-request-id')).toBe(id);
    await response.text();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(stack.logs('renderer').some((line) => line.includes(`"reqId":"${id}"`))).toBe(true);
    expect(stack.logs('gateway').some((line) => line.includes(`"reqId":"${id}"`))).toBe(true);
    const made = await fetch(`${stack.url}/healthz`);
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it.runIf(mode === 'local')('keeps the build in the embedded store by default', async () => {
    const current = JSON.parse(await readFile(join(stack.buildStoreDir!, 'current.json'), 'utf8')) as { id: string };
    const latest = (await (await fetch(`${stack.url}/_nuxt/builds/latest.json`)).json()) as { id: string };
    expect(latest.id).toBe(current.id);
  });
});

const hasRedis = await redisAvailable();
describe.runIf(hasRedis)('the stack with Redis', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ redis: true });
  });
  afterAll(() => stack?.stop());

  it('puts the current build id in Redis and serves it', async () => {
    const redis = new Redis(stack.redisUrl!);
    try {
      const current = JSON.parse((await redis.get(`${stack.redisPrefix}build:current`))!) as { id: string };
      const latest = (await (await fetch(`${stack.url}/_nuxt/builds/latest.json`)).json()) as { id: string };
      expect(latest.id).toBe(current.id);
    } finally {
      redis.disconnect();
    }
  });

  it('server-renders / with Redis as the store', async () => {
    const response = await fetch(`${stack.url}/`, { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
  });
});

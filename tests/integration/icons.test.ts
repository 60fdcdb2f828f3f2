/** Issue #8 through the gateway: icon subsets, SVGs, caching and CORS reach the browser unchanged. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.js';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ redis: false });
});
afterAll(() => stack?.stop());

describe('icons through the gateway', () => {
  it('answers a subset with its caching headers, and 304 for the same ETag', async () => {
    const url = `${stack.url}/api/_nuxt_icon/lucide.json?icons=sun,house,no-such-icon`;
    const response = await fetch(url, { headers: { origin: 'https://elsewhere.example' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('public, max-age=604800, stale-while-revalidate=86400');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const body = (await response.json()) as { prefix: string; icons: Record<string, { body: string }>; not_found?: string[] };
    expect(body.prefix).toBe('lucide');
    expect(Object.keys(body.icons)).toEqual(['house', 'sun']);
    expect(body.icons.sun?.body).toContain('<circle');
    expect(body.not_found).toEqual(['no-such-icon']);

    const etag = response.headers.get('etag');
    expect(etag).toMatch(/^"/);
    const again = await fetch(url, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
  });

  it('answers an SVG document', async () => {
    const response = await fetch(`${stack.url}/api/_nuxt_icon/lucide/house.svg?width=32`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toMatch(/^default-src 'none'/);
    const svg = await response.text();
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="32" height="32"/);
  });

  it('lists the collections', async () => {
    const response = await fetch(`${stack.url}/api/_nuxt_icon`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { count: number; collections: { prefix: string }[] };
    expect(body.collections.some((c) => c.prefix === 'simple-icons')).toBe(true);
  });

  it('answers a preflight for any origin', async () => {
    const response = await fetch(`${stack.url}/api/_nuxt_icon/lucide.json?icons=sun`, {
      method: 'OPTIONS',
      headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'GET' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('answers bad input with 4xx in the JSON error shape, with a short max-age', async () => {
    for (const [path, status] of [
      ['/api/_nuxt_icon/no-such-set.json?icons=a', 404],
      ['/api/_nuxt_icon/Lucide.json?icons=a', 400],
      ['/api/_nuxt_icon/lucide.json', 400],
      ['/api/_nuxt_icon/lucide.json?icons=' + Array.from({ length: 201 }, (_, i) => `i${i}`).join(','), 400],
    ] as const) {
      const response = await fetch(`${stack.url}${path}`);
      expect(response.status, path).toBe(status);
      expect(response.headers.get('cache-control'), path).toBe('public, max-age=300');
      expect(response.headers.get('access-control-allow-origin'), path).toBe('*');
      expect(await response.json(), path).toMatchObject({ statusCode: status });
    }
  });

  it('refuses traversal in the collection with 400 (at the gateway or the service)', async () => {
    for (const path of [
      '/api/_nuxt_icon/..%2f..%2fpackage.json?icons=a',
      '/api/_nuxt_icon/%2e%2e.json?icons=a',
      '/api/_nuxt_icon/%2e%2e%2fmdi/home.svg',
    ]) {
      const response = await fetch(`${stack.url}${path}`);
      expect(response.status, path).toBe(400);
      expect(await response.json(), path).toMatchObject({ statusCode: 400 });
    }
  });

  it('carries the request id to the icon service', async () => {
    const id = `icons-test-${Date.now()}`;
    const response = await fetch(`${stack.url}/api/_nuxt_icon/logos.json?icons=react`, { headers: { 'x-request-id': id } });
    expect(response.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(stack.logs('icons').some((line) => line.includes(id))).toBe(true);
  });
});

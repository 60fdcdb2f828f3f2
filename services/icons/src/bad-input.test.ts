/** Hostile or broken requests: always a clear 4xx in the one error shape, never a 500 or a file read. */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IconSets } from './icon-sets.js';
import type { IconSubset } from './icon-subset.js';
import { startIconsApp } from './test-support/icons-app.js';

let app: FastifyInstance;
let sets: IconSets;

beforeAll(async () => {
  ({ app, sets } = await startIconsApp());
});
afterAll(() => app.close());

const get = (url: string) => app.inject({ method: 'GET', url });

function expectClientError(response: { statusCode: number; json: () => unknown }, url: string): void {
  expect(response.statusCode, url).toBeGreaterThanOrEqual(400);
  expect(response.statusCode, url).toBeLessThan(500);
  expect(response.json(), url).toMatchObject({ statusCode: response.statusCode, url: expect.any(String) });
}

describe('bad input', () => {
  it('refuses path traversal in the collection, encoded or not, without reading any file', async () => {
    const urls = [
      '/api/_nuxt_icon/..%2fpackage.json?icons=a',
      '/api/_nuxt_icon/..%2F..%2Fpackage?icons=a',
      '/api/_nuxt_icon/%2e%2e.json?icons=a',
      '/api/_nuxt_icon/%2E%2E%2Fcollections.json?icons=a',
      '/api/_nuxt_icon/..?icons=a',
      '/api/_nuxt_icon/lucide%2f..%2f..%2fmdi?icons=a',
      '/api/_nuxt_icon/%252e%252e%252fmdi?icons=a',
      '/api/_nuxt_icon/..%5cmdi?icons=a',
      '/api/_nuxt_icon/lucide%00.json?icons=a',
      '/api/_nuxt_icon/..%2fjson%2fmdi/home.svg',
      '/api/_nuxt_icon/lucide/..%2f..%2fpackage.svg',
    ];
    const before = sets.cache.stats().loads;
    for (const url of urls) expectClientError(await get(url), url);
    expect(sets.cache.stats().loads).toBe(before);
  });

  it('refuses 10,000 names with 400 and counts duplicates once', async () => {
    const names = Array.from({ length: 10_000 }, (_, i) => `icon-${i}`).join(',');
    const response = await get(`/api/_nuxt_icon/lucide.json?icons=${names}`);
    expect(response.statusCode).toBe(400);
    const repeated = await get(`/api/_nuxt_icon/lucide.json?icons=${Array(10_000).fill('house').join(',')}`);
    expect(repeated.statusCode).toBe(200);
    expect(Object.keys(repeated.json<IconSubset>().icons)).toEqual(['house']);
  });

  it('puts very long names in not_found', async () => {
    const long = 'a'.repeat(5000);
    const response = await get(`/api/_nuxt_icon/lucide.json?icons=house,${long}`);
    expect(response.statusCode).toBe(200);
    expect(response.json<IconSubset>().not_found).toEqual([long]);
  });

  it('refuses a very long collection name', async () => {
    expectClientError(await get(`/api/_nuxt_icon/${'a'.repeat(400)}.json?icons=house`), 'long collection');
  });

  it('handles unicode in names and in the collection', async () => {
    const names = await get('/api/_nuxt_icon/lucide.json?icons=house,%F0%9F%98%80,h%C3%B6use,%EF%BF%BD,%C0%AF');
    expect(names.statusCode).toBe(200);
    expect(names.json<IconSubset>().not_found).toHaveLength(4);
    for (const url of ['/api/_nuxt_icon/l%C3%BAcide.json?icons=house', '/api/_nuxt_icon/%F0%9F%98%80?icons=house']) {
      expect((await get(url)).statusCode, url).toBe(400);
    }
  });

  it('handles empty values', async () => {
    for (const url of [
      '/api/_nuxt_icon/lucide.json?icons',
      '/api/_nuxt_icon/lucide.json?icons=&icons=',
      '/api/_nuxt_icon/.json?icons=house',
    ]) {
      expectClientError(await get(url), url);
    }
  });

  it('merges repeated icons parameters', async () => {
    const response = await get('/api/_nuxt_icon/lucide.json?icons=house&icons=check,house&icons=');
    expect(response.statusCode).toBe(200);
    expect(Object.keys(response.json<IconSubset>().icons)).toEqual(['check', 'house']);
  });

  it('answers 404 in the error shape for paths below a collection that are not SVGs', async () => {
    for (const url of ['/api/_nuxt_icon/lucide/house.png', '/api/_nuxt_icon/lucide/house/extra.svg']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type']).toContain('application/json');
    }
  });

  it('answers POST with 405 and Allow; HEAD answers like GET without a body', async () => {
    const post = await app.inject({ method: 'POST', url: '/api/_nuxt_icon/lucide.json?icons=house' });
    expect(post.statusCode).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD, OPTIONS');
    expect(post.json()).toMatchObject({ statusCode: 405 });
    const head = await app.inject({ method: 'HEAD', url: '/api/_nuxt_icon/lucide.json?icons=house' });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
  });
});

/** Caching, ETag with 304, CORS with preflight, and how errors are cached. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCatalogue } from './catalogue.js';
import { etagMatches } from '@tern/shared/http-cache/conditional';
import { SUCCESS_CACHE_CONTROL, strongEtag } from './http-cache.js';
import { startIconsApp } from './test-support/icons-app.js';

let app: FastifyInstance;
let failingApp: FastifyInstance;
let brokenDir: string;

/** A package folder whose lucide file is corrupt: loading it really fails. */
async function brokenPackage(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'icons-broken-'));
  await mkdir(join(dir, 'json'));
  await writeFile(join(dir, 'package.json'), '{"version":"0.0.0-test"}');
  await writeFile(join(dir, 'collections.json'), '{"lucide":{"name":"Lucide","total":1}}');
  await writeFile(join(dir, 'json', 'lucide.json'), '{"prefix":"lucide","icons":{"house":{"body":"disk error');
  return dir;
}

beforeAll(async () => {
  ({ app } = await startIconsApp());
  brokenDir = await brokenPackage();
  ({ app: failingApp } = await startIconsApp({ preload: [], catalogue: await readCatalogue(brokenDir) }));
});
afterAll(async () => {
  await app.close();
  await failingApp.close();
  await rm(brokenDir, { recursive: true, force: true });
});

const subset = '/api/_nuxt_icon/lucide.json?icons=house,check';

describe('success headers', () => {
  it('caches a week with stale-while-revalidate and a strong ETag', async () => {
    const response = await app.inject({ method: 'GET', url: subset });
    expect(response.headers['cache-control']).toBe('public, max-age=604800, stale-while-revalidate=86400');
    expect(response.headers.etag).toMatch(/^"[\w-]{32}"$/);
  });

  it('answers 304 with no body when If-None-Match matches, also weak or in a list', async () => {
    const { etag } = (await app.inject({ method: 'GET', url: subset })).headers;
    for (const header of [String(etag), `W/${String(etag)}`, `"other", ${String(etag)}`, '*']) {
      const response = await app.inject({ method: 'GET', url: subset, headers: { 'if-none-match': header } });
      expect(response.statusCode, header).toBe(304);
      expect(response.body).toBe('');
      expect(response.headers.etag).toBe(etag);
      expect(response.headers['cache-control']).toBe(SUCCESS_CACHE_CONTROL);
    }
    const stale = await app.inject({ method: 'GET', url: subset, headers: { 'if-none-match': '"stale"' } });
    expect(stale.statusCode).toBe(200);
  });

  it('gives different ETags for different names, sets and package versions', () => {
    const a = strongEtag('2.2.535', ['lucide', 'house']);
    expect(strongEtag('2.2.535', ['lucide', 'check'])).not.toBe(a);
    expect(strongEtag('2.2.535', ['mdi', 'house'])).not.toBe(a);
    expect(strongEtag('2.2.536', ['lucide', 'house'])).not.toBe(a);
    expect(etagMatches(undefined, a)).toBe(false);
  });

  it('changes the ETag when only the invalid names differ, since not_found differs', async () => {
    const a = await app.inject({ method: 'GET', url: '/api/_nuxt_icon/lucide.json?icons=house,Bad' });
    const b = await app.inject({ method: 'GET', url: '/api/_nuxt_icon/lucide.json?icons=house,Worse' });
    expect(a.headers.etag).not.toBe(b.headers.etag);
  });
});

describe('CORS', () => {
  it('allows any origin on answers and errors', async () => {
    for (const url of [subset, '/api/_nuxt_icon/nope.json?icons=a', '/api/_nuxt_icon/lucide/house.svg', '/api/_nuxt_icon']) {
      const response = await app.inject({ method: 'GET', url, headers: { origin: 'https://elsewhere.example' } });
      expect(response.headers['access-control-allow-origin'], url).toBe('*');
    }
  });

  it('answers a preflight with 204, the methods and the requested headers', async () => {
    const response = await app.inject({
      method: 'OPTIONS',
      url: subset,
      headers: {
        origin: 'https://elsewhere.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'x-requested-with, if-none-match',
      },
    });
    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['access-control-allow-methods']).toBe('GET, HEAD, OPTIONS');
    expect(response.headers['access-control-allow-headers']).toBe('x-requested-with, if-none-match');
    expect(response.headers['access-control-max-age']).toBe('86400');
  });

  it('does not echo a malformed requested header list', async () => {
    const response = await app.inject({
      method: 'OPTIONS',
      url: '/api/_nuxt_icon',
      headers: { 'access-control-request-headers': 'x-a\r\nset-cookie: a=b' },
    });
    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-headers']).toBeUndefined();
  });
});

describe('error caching', () => {
  it('gives 4xx a short max-age and no ETag', async () => {
    for (const url of ['/api/_nuxt_icon/nope.json?icons=a', '/api/_nuxt_icon/lucide.json', '/api/_nuxt_icon/BAD.json?icons=a']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode).toBeLessThan(500);
      expect(response.headers['cache-control'], url).toBe('public, max-age=300');
      expect(response.headers.etag).toBeUndefined();
    }
  });

  it('answers a load failure with 500, no-store, no ETag and no internal message', async () => {
    const response = await failingApp.inject({ method: 'GET', url: subset });
    expect(response.statusCode).toBe(500);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers.etag).toBeUndefined();
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.body).not.toContain('disk error');
    expect(response.json()).toMatchObject({ statusCode: 500 });
  });
});

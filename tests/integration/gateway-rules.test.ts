/**
 * Issue #3 through the whole stack: each demo route rule of site.config.ts, the build files,
 * and a new build published to the store taking effect with no restart.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileBuildStore, type BuildMeta } from '@tern/shared/build-store';
import { projectRoot } from '@tern/shared/config/paths';
import { normalizeRouteRules } from '@tern/shared/route-rules/route-rules';
import { waitFor } from '../support/wait-for.js';
import { startStack, type Stack } from '../support/stack.js';

const get = (url: string, headers: Record<string, string> = {}) => fetch(url, { redirect: 'manual', headers });

describe('gateway route rules through the stack', () => {
  let stack: Stack;
  let firstMeta: BuildMeta;
  beforeAll(async () => {
    stack = await startStack({});
    firstMeta = JSON.parse(await readFile(join(projectRoot, 'dist', 'build', 'meta.json'), 'utf8')) as BuildMeta;
  });
  afterAll(() => stack?.stop());

  it('/home redirects to / with 301', async () => {
    const response = await get(`${stack.url}/home`);
    expect([response.status, response.headers.get('location')]).toEqual([301, '/']);
  });

  it('/categories/** redirects to /category/** with 308, keeping the rest of the path and the query', async () => {
    const response = await get(`${stack.url}/categories/rust?page=2`);
    expect([response.status, response.headers.get('location')]).toEqual([308, '/category/rust?page=2']);
    // An empty segment is first spelled canonically (one path per page), then the rule applies:
    // neither hop ever leaves the site.
    const evil = await get(`${stack.url}/categories//evil.example`);
    expect(evil.headers.get('location')).toBe('/categories/evil.example');
    const next = await get(`${stack.url}${evil.headers.get('location')}`);
    expect(next.headers.get('location')).toBe('/category/evil.example');
  });

  it('/source redirects to the external https://example.com/source with 302', async () => {
    const response = await get(`${stack.url}/source`);
    expect([response.status, response.headers.get('location')]).toEqual([302, 'https://example.com/source']);
  });

  it('/_nuxt/** assets are cached for a year, immutable', async () => {
    const manifest = JSON.parse(await readFile(join(projectRoot, 'dist', 'client', '.vite', 'manifest.json'), 'utf8')) as Record<
      string,
      { file: string }
    >;
    const asset = Object.values(manifest)[0]!.file;
    const response = await get(`${stack.url}/_nuxt/${asset.replace(/^_nuxt\//, '')}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('/login carries x-robots-tag: noindex; / does not', async () => {
    expect((await get(`${stack.url}/login`, { accept: 'text/html' })).headers.get('x-robots-tag')).toBe('noindex');
    expect((await get(`${stack.url}/`, { accept: 'text/html' })).headers.get('x-robots-tag')).toBeNull();
  });

  it('sends the security headers and compresses HTML', async () => {
    const response = await get(`${stack.url}/`, { accept: 'text/html', 'accept-encoding': 'br, gzip' });
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBeTruthy();
    expect(response.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(response.headers.get('content-encoding')).toMatch(/^(br|gzip)$/);
    expect(await response.text()).toMatch(/^<!DOCTYPE html>/i); // fetch decodes it
  });

  it('serves the build the renderer published', async () => {
    const latest = await get(`${stack.url}/_nuxt/builds/latest.json`);
    expect(latest.headers.get('cache-control')).toBe('public, max-age=1, must-revalidate');
    expect(await latest.json()).toEqual({ id: firstMeta.id, timestamp: firstMeta.timestamp });
    const meta = await get(`${stack.url}/_nuxt/builds/meta/${firstMeta.id}.json`);
    expect(meta.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await meta.json()).toEqual(firstMeta);
    const unknown = await get(`${stack.url}/_nuxt/builds/meta/does-not-exist.json`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ statusCode: 404 });
  });

  it('follows a new build within a second: new rules apply, the old meta is still served', async () => {
    const store = createFileBuildStore({ dir: stack.buildStoreDir! });
    const next: BuildMeta = {
      id: 'integration-next',
      timestamp: Date.now(),
      matcher: normalizeRouteRules({ '/brand-new': { redirect: { to: '/category/rust', statusCode: 302 } } }),
      prerendered: [],
    };
    await store.publish(next);
    const took = await waitFor(
      async () => ((await (await get(`${stack.url}/_nuxt/builds/latest.json`)).json()) as { id: string }).id === next.id,
      1000,
    );
    expect(took).toBeLessThanOrEqual(1000);
    const fresh = await get(`${stack.url}/brand-new`);
    expect([fresh.status, fresh.headers.get('location')]).toEqual([302, '/category/rust']);
    expect((await get(`${stack.url}/home`)).status).not.toBe(301); // the old build's rules are gone
    const old = await get(`${stack.url}/_nuxt/builds/meta/${firstMeta.id}.json`);
    expect(old.status).toBe(200);
    expect(((await old.json()) as BuildMeta).id).toBe(firstMeta.id);
    await store.close();
  });
});

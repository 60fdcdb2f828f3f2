/**
 * Builds side by side at the gateway (docs/decisions/skew-protection.md): client files of any kept
 * build from the shared asset store, payloads naming a build sent to a renderer of that build, all
 * else to the current build's renderers. Real upstream servers and a real file store.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileAssetStore } from '@tern/shared/build-store';
import { waitFor } from '../../../tests/support/wait-for.js';
import { closedPortUrl, metaOf, startGateway, startUpstream, type TestGateway, type Upstream } from './test-support/upstreams.js';

let dir = '';
let fallback: Upstream;
let oldRenderer: Upstream;
let newRenderer: Upstream;
let gateway: TestGateway;

const chunk = {
  name: 'old-chunk-Ab12.js',
  identity: Buffer.from('export const old = 1;'),
  br: Buffer.from('br-bytes'),
  gzip: Buffer.from('gz-bytes'),
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gateway-skew-'));
  [fallback, oldRenderer, newRenderer] = await Promise.all([startUpstream('fallback'), startUpstream('old'), startUpstream('new')]);
  const clientDir = join(dir, 'client');
  await mkdir(clientDir);
  await writeFile(join(clientDir, 'own-Zz9.css'), 'body{color:red}');
  await writeFile(join(clientDir, 'own-Zz9.css.br'), 'own-br');
  const assets = createFileAssetStore({ dir: join(dir, 'store', 'assets') });
  await assets.publish('build-old', [chunk]);
  gateway = await startGateway(
    {
      RENDERER_URL: fallback.url,
      IMAGE_URL: fallback.url,
      ICONS_URL: fallback.url,
      BUILD_STORE_DIR: join(dir, 'store'),
      CLIENT_DIR: clientDir,
    },
    metaOf('build-new', {}),
  );
});
afterAll(async () => {
  await gateway?.cleanup();
  await Promise.all([fallback, oldRenderer, newRenderer].map((upstream) => upstream?.app.close()));
  await rm(dir, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}) => gateway.app.inject({ url, headers });
const seenBy = (upstream: Upstream, url: string) => upstream.seen.some((request) => request.url === url);

describe('client files of any kept build', () => {
  it('serves a file of an older build from the asset store: immutable, in the best encoding the client takes', async () => {
    for (const [accept, encoding, body] of [
      ['gzip, deflate, br', 'br', chunk.br],
      ['gzip', 'gzip', chunk.gzip],
      ['identity', undefined, chunk.identity],
    ] as const) {
      const response = await get(`/_nuxt/${chunk.name}`, { 'accept-encoding': accept });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBe(encoding);
      expect(response.rawPayload.equals(body)).toBe(true);
      expect(response.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(String(response.headers.vary)).toContain('accept-encoding');
    }
    await get(`/_nuxt/${chunk.name}`, { 'accept-encoding': 'br' });
    // One store read per encoding; a repeat comes from memory.
    expect(gateway.assets.served).toMatchObject({ store: 3, memory: 1 });
    expect(seenBy(fallback, `/_nuxt/${chunk.name}`)).toBe(false);
  });

  it('serves its own client build from disk once, then from memory; any other file goes on to the renderer', async () => {
    const before = { ...gateway.assets.served };
    for (let i = 0; i < 3; i++) {
      const own = await get('/_nuxt/own-Zz9.css', { 'accept-encoding': 'br' });
      expect([own.headers['content-encoding'], own.body, own.headers['content-type']]).toEqual(['br', 'own-br', 'text/css; charset=utf-8']);
    }
    const plain = await get('/_nuxt/own-Zz9.css', { 'accept-encoding': 'identity' });
    expect([plain.headers['content-encoding'], plain.body]).toEqual([undefined, 'body{color:red}']);
    // One disk read per encoding asked for; the repeats come from memory.
    expect(gateway.assets.served.local - before.local).toBe(2);
    expect(gateway.assets.served.memory - before.memory).toBe(2);
    for (const url of ['/_nuxt/missing-Q1.js', '/_nuxt/old-chunk-Ab12.js.map', '/_nuxt/../secret.js']) {
      fallback.seen.length = 0;
      const response = await get(url);
      expect(response.headers['cache-control']).not.toBe('public, max-age=31536000, immutable');
      expect(fallback.seen.length).toBe(1);
    }
  });
});

describe('renderer choice', () => {
  it('sends a payload naming a build to a renderer of that build, the rest to the current build, and uses RENDERER_URL when none is announced', async () => {
    await gateway.store.announceRenderer({ buildId: 'build-old', url: oldRenderer.url }, 60_000);
    await gateway.store.announceRenderer({ buildId: 'build-new', url: newRenderer.url }, 60_000);
    await waitFor(() => gateway.build.renderersOf('build-new').length === 1 && gateway.build.renderersOf('build-old').length === 1, 3000);
    await get('/page/one');
    await get('/category/git/_payload.json?build-old&view=all');
    await get('/category/git/_payload.json?build-gone');
    await get('/category/git/_payload.json?view=all');
    expect(seenBy(newRenderer, '/page/one')).toBe(true);
    expect(seenBy(oldRenderer, '/category/git/_payload.json?build-old&view=all')).toBe(true);
    expect(seenBy(newRenderer, '/category/git/_payload.json?build-gone')).toBe(true);
    expect(seenBy(newRenderer, '/category/git/_payload.json?view=all')).toBe(true);
    expect(oldRenderer.seen.length).toBe(1);

    await gateway.store.withdrawRenderer({ buildId: 'build-old', url: oldRenderer.url });
    await waitFor(() => gateway.build.renderersOf('build-old').length === 0, 3000);
    await get('/category/git/_payload.json?build-old');
    expect(seenBy(newRenderer, '/category/git/_payload.json?build-old')).toBe(true);

    await gateway.store.withdrawRenderer({ buildId: 'build-new', url: newRenderer.url });
    await waitFor(() => gateway.build.renderersOf('build-new').length === 0, 3000);
    await get('/page/two');
    expect(seenBy(fallback, '/page/two')).toBe(true);
  });

  it('leaves out a renderer that refused a connection (it died unannounced): one request fails, not every other one', async () => {
    const dead = { buildId: 'build-new', url: await closedPortUrl() };
    const live = { buildId: 'build-new', url: newRenderer.url };
    await gateway.store.announceRenderer(dead, 60_000);
    await gateway.store.announceRenderer(live, 60_000);
    await waitFor(() => gateway.build.renderersOf('build-new').length === 2, 3000);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await get(`/page/refused-${i}`)).statusCode);
    expect(statuses.filter((status) => status === 502).length).toBeLessThanOrEqual(1);
    expect(statuses.slice(2)).toEqual([200, 200, 200, 200]);
    await gateway.store.withdrawRenderer(dead);
    await gateway.store.withdrawRenderer(live);
  });
});

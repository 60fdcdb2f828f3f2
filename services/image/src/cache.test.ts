import { readdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeFixtures, photoJpeg, type Fixtures } from './test-support/make-fixtures.js';
import { metaOf, startImageApp, type TestImageApp } from './test-support/helpers.js';

let fx: Fixtures;
let t: TestImageApp;
beforeAll(async () => {
  fx = await makeFixtures();
  t = await startImageApp({}, {}, fx);
});
afterAll(async () => {
  await t.close();
  const { rm } = await import('node:fs/promises');
  await rm(fx.base, { recursive: true, force: true });
});

async function countFiles(dir: string): Promise<number> {
  let n = 0;
  for (const shard of await readdir(dir).catch(() => [] as string[])) {
    n += (await readdir(join(dir, shard)).catch(() => [] as string[])).filter((f) => !f.endsWith('.tmp')).length;
  }
  return n;
}

describe('result cache and validators', () => {
  it('a second request is a hit with the same ETag and no new transform', async () => {
    const before = t.images.metrics.transforms;
    const first = await t.app.inject('/_ipx/w_200/images/photo.jpg');
    expect(first.headers['x-image-cache']).toBe('MISS');
    expect(first.headers.etag).toMatch(/^W\/".+"$/);
    expect(first.headers['last-modified']).toBeTruthy();
    expect(first.headers['cache-control']).toBe('public, max-age=86400, stale-while-revalidate=604800');
    const second = await t.app.inject('/_ipx/w:200/images/photo.jpg');
    expect(second.headers['x-image-cache']).toBe('HIT');
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(t.images.metrics.transforms).toBe(before + 1);
  });

  it('answers 304 before any decode, even with a cold cache', async () => {
    const warm = await t.app.inject('/_ipx/w_180/images/photo.jpg');
    const cold = await startImageApp({ IMAGE_CACHE_DIR: join(fx.base, 'cold-cache') }, {}, fx);
    try {
      const res = await cold.app.inject({ url: '/_ipx/w_180/images/photo.jpg', headers: { 'if-none-match': String(warm.headers.etag) } });
      expect(res.statusCode).toBe(304);
      expect(res.rawPayload.length).toBe(0);
      expect(res.headers.etag).toBe(warm.headers.etag);
      const since = await cold.app.inject({
        url: '/_ipx/w_180/images/photo.jpg',
        headers: { 'if-modified-since': String(warm.headers['last-modified']) },
      });
      expect(since.statusCode).toBe(304);
      expect(cold.images.metrics.transforms).toBe(0);
      expect(cold.images.metrics.notModified).toBe(2);
      const other = await cold.app.inject({ url: '/_ipx/w_181/images/photo.jpg', headers: { 'if-none-match': String(warm.headers.etag) } });
      expect(other.statusCode).toBe(200);
    } finally {
      await cold.close();
    }
  });

  it('a changed source gets a new ETag', async () => {
    const path = join(fx.root, 'images', 'changing.jpg');
    await writeFile(path, await photoJpeg(100, 100));
    const a = await t.app.inject('/_ipx/w_50/images/changing.jpg');
    await writeFile(path, await photoJpeg(120, 100));
    await utimes(path, new Date(), new Date(Date.now() + 5000));
    const b = await t.app.inject({ url: '/_ipx/w_50/images/changing.jpg', headers: { 'if-none-match': String(a.headers.etag) } });
    expect(b.statusCode).toBe(200);
    expect(b.headers.etag).not.toBe(a.headers.etag);
    expect((await metaOf(b.rawPayload)).height).toBe(42);
  });

  it('fingerprinted sources are immutable; Cache-Control is configurable', async () => {
    const hashed = await t.app.inject('/_ipx/w_32/images/cover-D3adB33f.png');
    expect(hashed.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const custom = await startImageApp({ IMAGE_CACHE_CONTROL: 'public, max-age=60' }, {}, fx);
    try {
      expect((await custom.app.inject('/_ipx/w_32/images/alpha.png')).headers['cache-control']).toBe('public, max-age=60');
    } finally {
      await custom.close();
    }
  });

  it('survives a restart and stays within its index size', async () => {
    const dir = join(fx.base, 'small-cache');
    const small = await startImageApp({ IMAGE_CACHE_DIR: dir, IMAGE_CACHE_INDEX_SIZE: '2' }, {}, fx);
    for (const w of [10, 20, 30]) expect((await small.app.inject(`/_ipx/w_${w}/images/alpha.png`)).statusCode).toBe(200);
    expect(await countFiles(dir)).toBe(2);
    await small.close();
    const again = await startImageApp({ IMAGE_CACHE_DIR: dir, IMAGE_CACHE_INDEX_SIZE: '2' }, {}, fx);
    try {
      expect((await again.app.inject('/_ipx/w_30/images/alpha.png')).headers['x-image-cache']).toBe('HIT');
      expect((await again.app.inject('/_ipx/w_10/images/alpha.png')).headers['x-image-cache']).toBe('MISS');
      expect(again.images.metrics.transforms).toBe(1);
    } finally {
      await again.close();
    }
  });
});

describe('single flight', () => {
  it('100 identical concurrent requests give one transform', async () => {
    const app = await startImageApp({ IMAGE_CACHE_DIR: join(fx.base, 'flight-cache') }, {}, fx);
    try {
      const responses = await Promise.all(Array.from({ length: 100 }, () => app.app.inject('/_ipx/w_640&q_70/images/photo.jpg')));
      expect(responses.every((r) => r.statusCode === 200)).toBe(true);
      expect(new Set(responses.map((r) => r.headers.etag)).size).toBe(1);
      expect(responses.every((r) => r.rawPayload.equals(responses[0]!.rawPayload))).toBe(true);
      expect(app.images.metrics.transforms).toBe(1);
    } finally {
      await app.close();
    }
  });
});

describe('width snapping', () => {
  it('snaps widths to the shared list (packages/shared/src/config/image-widths.ts), keeps placeholder widths, never enlarges', async () => {
    const snap = await startImageApp({ IMAGE_SNAP_WIDTHS: 'true', IMAGE_CACHE_DIR: join(fx.base, 'snap-cache') }, {}, fx);
    try {
      const w = async (url: string) => (await metaOf((await snap.app.inject(url)).rawPayload)).width;
      expect(await w('/_ipx/w_500/images/photo.jpg')).toBe(512);
      expect(await w('/_ipx/w_600/images/photo.jpg')).toBe(640);
      expect(await w('/_ipx/w_10/images/photo.jpg')).toBe(10);
      expect(await w('/_ipx/w_700/images/photo.jpg')).toBe(768);
      const box = await metaOf((await snap.app.inject('/_ipx/s_300x150/images/photo.jpg')).rawPayload);
      expect([box.width, box.height]).toEqual([320, 160]);
      const a = await snap.app.inject('/_ipx/w_333/images/photo.jpg');
      const b = await snap.app.inject('/_ipx/w_384/images/photo.jpg');
      expect(a.headers.etag).toBe(b.headers.etag);
    } finally {
      await snap.close();
    }
  });
});

describe('readiness', () => {
  it('is ready when the cache folder is writable, down when it is not', async () => {
    expect((await t.app.inject('/readyz')).json()).toMatchObject({ status: 'ready', checks: { cache: 'ok' } });
    const broken = await startImageApp({ IMAGE_CACHE_DIR: join(fx.root, 'images', 'photo.jpg', 'cache') }, {}, fx);
    try {
      const res = await broken.app.inject('/readyz');
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ checks: { cache: 'down' } });
      expect((await broken.app.inject('/_ipx/w_20/images/alpha.png')).statusCode).toBe(200);
    } finally {
      await broken.close();
    }
  });
});

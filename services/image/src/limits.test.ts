import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metaOf, startImageApp, type TestImageApp } from './test-support/helpers.js';

let t: TestImageApp;
beforeAll(async () => {
  t = await startImageApp();
});
afterAll(() => t.close());

const get = (url: string, accept = 'text/html') => t.app.inject({ url, headers: { accept } });

function expectError(res: Awaited<ReturnType<typeof get>>, status: number) {
  expect(res.statusCode, res.body.slice(0, 200)).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.headers['cache-control']).toBe('no-store');
  const body = res.json() as Record<string, unknown>;
  expect(body).toMatchObject({ statusCode: status, url: res.raw.req.url });
  expect(typeof body.statusMessage).toBe('string');
  expect(typeof body.message).toBe('string');
}

describe('bad requests are 400 in the JSON error shape, even for a browser', () => {
  const bad = [
    'bogus_1',
    'w_abc',
    'w_0',
    'w_-5',
    'w_4097',
    'h_9000',
    's_10x',
    's_5000x10',
    'q_0',
    'q_101',
    'fit_squash',
    'pos_middle',
    'b_zz!',
    'kernel_box',
    'f_bmp',
    'f_heic',
    'extend_1_2',
    'extract_1_2_3',
    'rotate_999',
    'blur_0.1',
    'median_99',
    'trim_300',
    'flip_yes',
    'w_100,,h_10',
    '__proto___1',
    'constructor',
  ];
  for (const mods of bad) {
    it(mods, async () => expectError(await get(`/_ipx/${mods}/images/photo.jpg`), 400));
  }

  it('an extract outside the image and an oversized output are 400', async () => {
    expectError(await get('/_ipx/extract_1100_0_200_10/images/photo.jpg'), 400);
    expectError(await get('/_ipx/enlarge&extend_4000/images/alpha.png'), 400);
    expectError(await get('/_ipx/w_50/images/tall.png'), 400);
  });

  it('a request without a source or modifiers is 400', async () => {
    expectError(await get('/_ipx/w_100'), 400);
    expectError(await get('/_ipx/w_100/'), 400);
    const malformed = await get('/_ipx/_/%E0%A4%A.png');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.headers['content-type']).toMatch(/^application\/json/);
  });
});

describe('source problems have their own statuses', () => {
  it('missing 404, not an image 415, corrupt 422, decompression bomb 413', async () => {
    expectError(await get('/_ipx/w_100/images/nope.jpg'), 404);
    expectError(await get('/_ipx/w_100/images/not-image.png'), 415);
    expectError(await get('/_ipx/w_100/images/corrupt.jpg'), 422);
    expectError(await get('/_ipx/w_100/images/bomb.png'), 413);
    expect(t.images.metrics.transforms).toBeGreaterThanOrEqual(0);
  });

  it('a source larger than the output limit is scaled down when no size is asked', async () => {
    const meta = await metaOf((await get('/_ipx/_/images/tall.png')).rawPayload);
    expect([meta.width, meta.height]).toEqual([41, 4096]);
  });

  it('the dimension limit is configurable', async () => {
    const small = await startImageApp({ IMAGE_MAX_DIMENSION: '500' }, {}, t.fixtures);
    try {
      expect((await small.app.inject('/_ipx/w_501/images/photo.jpg')).statusCode).toBe(400);
      const meta = await metaOf((await small.app.inject('/_ipx/_/images/photo.jpg')).rawPayload);
      expect(Math.max(meta.width!, meta.height!)).toBe(500);
    } finally {
      await small.close();
    }
  });

  it('the input pixel limit is configurable', async () => {
    const strict = await startImageApp({ IMAGE_MAX_INPUT_PIXELS: '100000' }, {}, t.fixtures);
    try {
      expect((await strict.app.inject('/_ipx/w_100/images/photo.jpg')).statusCode).toBe(413);
      expect((await strict.app.inject('/_ipx/w_100/images/alpha.png')).statusCode).toBe(200);
    } finally {
      await strict.close();
    }
  });

  it('the service keeps answering after every bad request', async () => {
    const res = await get('/_ipx/w_64/images/photo.jpg');
    expect(res.statusCode).toBe(200);
    expect((await t.app.inject('/healthz')).statusCode).toBe(200);
  });
});

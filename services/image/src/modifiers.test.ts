import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { metaOf, startImageApp, type TestImageApp } from './test-support/helpers.js';

let t: TestImageApp;
beforeAll(async () => {
  t = await startImageApp();
});
afterAll(() => t.close());

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers });

describe('resize family', () => {
  it('w_ resizes and outputs webp by default', async () => {
    const res = await get('/_ipx/w_300/images/photo.jpg');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    const meta = await metaOf(res.rawPayload);
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 300, 200]);
  });

  it('h_, s_WxH, and w with h become one resize', async () => {
    expect((await metaOf((await get('/_ipx/h_100/images/photo.jpg')).rawPayload)).width).toBe(150);
    const s = await metaOf((await get('/_ipx/s_200x200/images/photo.jpg')).rawPayload);
    expect([s.width, s.height]).toEqual([200, 200]);
    const wh = await metaOf((await get('/_ipx/w_120&h_60/images/photo.jpg')).rawPayload);
    expect([wh.width, wh.height]).toEqual([120, 60]);
  });

  it('accepts , and & between pairs and : = _ between key and value', async () => {
    for (const mods of ['w_100,f_png', 'w:100&f:png', 'w=100,format=png']) {
      const res = await get(`/_ipx/${mods}/images/photo.jpg`);
      expect(res.statusCode, mods).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      expect((await metaOf(res.rawPayload)).width).toBe(100);
    }
  });

  it('does not enlarge unless asked; enlarge and kernel are applied', async () => {
    expect((await metaOf((await get('/_ipx/w_1000/images/alpha.png')).rawPayload)).width).toBe(200);
    const big = await metaOf((await get('/_ipx/enlarge&s_400x200&kernel_nearest/images/alpha.png')).rawPayload);
    expect([big.width, big.height]).toEqual([400, 200]);
  });

  it('fit and position choose how a box is filled', async () => {
    const contain = await get('/_ipx/s_100x100&fit_contain&b_00ff00&f_png/images/photo.jpg');
    const { data, info } = await sharp(contain.rawPayload).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([100, 100]);
    expect([data[0], data[1], data[2]]).toEqual([0, 255, 0]);
    const inside = await metaOf((await get('/_ipx/s_100x100&fit_inside/images/photo.jpg')).rawPayload);
    expect([inside.width, inside.height]).toEqual([100, 67]);
    expect((await get('/_ipx/s_100x100&pos_left%20top/images/photo.jpg')).statusCode).toBe(200);
    expect((await get('/_ipx/s_100x100&position_attention/images/photo.jpg')).statusCode).toBe(200);
  });
});

describe('format family', () => {
  it('f_ picks the encoder; q_ changes the size', async () => {
    const jpeg = await get('/_ipx/f_jpg&w_300/images/photo.jpg');
    expect(jpeg.headers['content-type']).toBe('image/jpeg');
    const low = await get('/_ipx/f_jpeg&q_10&w_300/images/photo.jpg');
    expect(low.rawPayload.length).toBeLessThan(jpeg.rawPayload.length);
    for (const f of ['png', 'gif', 'tiff'])
      expect((await metaOf((await get(`/_ipx/f_${f}&w_50/images/photo.jpg`)).rawPayload)).format).toBe(f);
  });

  it('f_auto negotiates from Accept, with Vary: Accept, and avif only when enabled', async () => {
    const webp = await get('/_ipx/f_auto&w_50/images/photo.jpg', { accept: 'image/avif,image/webp,*/*' });
    expect(webp.headers['content-type']).toBe('image/webp');
    expect(webp.headers.vary).toBe('Accept');
    const wildcard = await get('/_ipx/f_auto&w_50/images/photo.jpg', { accept: '*/*' });
    expect(wildcard.headers['content-type']).toBe('image/webp');
    const jpeg = await get('/_ipx/f_auto&w_50/images/photo.jpg', { accept: 'image/jpeg' });
    expect(jpeg.headers['content-type']).toBe('image/jpeg');
    expect((await get('/_ipx/f_avif/images/photo.jpg')).statusCode).toBe(400);

    const avif = await startImageApp({ IMAGE_AVIF: 'true' });
    try {
      const res = await avif.app.inject({ url: '/_ipx/f_auto&w_50/images/photo.jpg', headers: { accept: 'image/avif,image/webp' } });
      expect(res.headers['content-type']).toBe('image/avif');
    } finally {
      await avif.close();
    }
  });

  it('animated keeps the frames of a gif', async () => {
    const still = await metaOf((await get('/_ipx/f_webp/images/anim.gif')).rawPayload);
    expect(still.pages ?? 1).toBe(1);
    const moving = await metaOf((await get('/_ipx/f_webp&a/images/anim.gif')).rawPayload);
    expect(moving.pages).toBe(2);
    expect((await metaOf((await get('/_ipx/_/images/anim.gif')).rawPayload)).pages).toBe(2);
  });
});

describe('geometry and filter families', () => {
  // small.jpg is 120x80.
  const cases: Array<[string, (m: sharp.Metadata) => void]> = [
    ['rotate_90', (m) => expect([m.width, m.height]).toEqual([80, 120])],
    ['flip', (m) => expect(m.width).toBe(120)],
    ['flop', (m) => expect(m.width).toBe(120)],
    ['extend_10_20_30_40&b_ff0000', (m) => expect([m.width, m.height]).toEqual([180, 120])],
    ['extend_5', (m) => expect([m.width, m.height]).toEqual([130, 90])],
    ['extract_10_10_100_50', (m) => expect([m.width, m.height]).toEqual([100, 50])],
    ['crop_0_0_30_40', (m) => expect([m.width, m.height]).toEqual([30, 40])],
    ['trim_10', (m) => expect(m.width).toBeLessThanOrEqual(120)],
    ['trim', (m) => expect(m.width).toBeLessThanOrEqual(120)],
    ['blur_3', (m) => expect(m.width).toBe(120)],
    ['sharpen_1.5', (m) => expect(m.width).toBe(120)],
    ['median_3', (m) => expect(m.width).toBe(120)],
    ['gamma_2.2', (m) => expect(m.width).toBe(120)],
    ['negate', (m) => expect(m.width).toBe(120)],
    ['normalize', (m) => expect(m.width).toBe(120)],
    ['threshold_100', (m) => expect(m.width).toBe(120)],
    ['modulate_1.5', (m) => expect(m.width).toBe(120)],
    ['modulate_1_0_90', (m) => expect(m.width).toBe(120)],
    ['tint_00ff00', (m) => expect(m.width).toBe(120)],
    ['grayscale', (m) => expect(m.width).toBe(120)],
    ['flatten&b_ffffff', (m) => expect(m.hasAlpha).toBe(false)],
  ];
  for (const [mods, check] of cases) {
    it(mods, async () => {
      const res = await get(`/_ipx/${mods}/images/small.jpg`);
      expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
      check(await metaOf(res.rawPayload));
    });
  }

  it('blur changes the pixels and grayscale drops the colour', async () => {
    const plain = await sharp((await get('/_ipx/w_100&f_png/images/photo.jpg')).rawPayload).stats();
    const blurred = await sharp((await get('/_ipx/w_100&f_png&blur_5/images/photo.jpg')).rawPayload).stats();
    expect(blurred.channels[0]!.stdev).toBeLessThan(plain.channels[0]!.stdev);
    const grey = await sharp((await get('/_ipx/w_100&f_png&grayscale/images/photo.jpg')).rawPayload).stats();
    expect(Math.abs(grey.channels[0]!.mean - grey.channels[2]!.mean)).toBeLessThan(1);
    const bright = await sharp((await get('/_ipx/w_100&f_png&modulate_2/images/photo.jpg')).rawPayload).stats();
    expect(bright.channels[0]!.mean).toBeGreaterThan(plain.channels[0]!.mean + 10);
    const desaturated = await sharp((await get('/_ipx/w_100&f_png&modulate_1_0/images/photo.jpg')).rawPayload).stats();
    expect(Math.abs(desaturated.channels[0]!.mean - desaturated.channels[2]!.mean)).toBeLessThan(2);
  });
});

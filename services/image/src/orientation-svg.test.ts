import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metaOf, startImageApp, type TestImageApp } from './test-support/helpers.js';

let t: TestImageApp;
beforeAll(async () => {
  t = await startImageApp();
});
afterAll(() => t.close());

describe('EXIF orientation and metadata', () => {
  it('applies the orientation and strips the metadata', async () => {
    const source = await metaOf(await import('node:fs/promises').then((fs) => fs.readFile(`${t.fixtures.root}/images/rotated.jpg`)));
    expect([source.width, source.height, source.orientation, Boolean(source.exif)]).toEqual([300, 200, 6, true]);
    for (const mods of ['_', 'f_jpeg', 'w_100&f_png']) {
      const res = await t.app.inject(`/_ipx/${mods}/images/rotated.jpg`);
      const meta = await metaOf(res.rawPayload);
      expect(meta.height! > meta.width!, mods).toBe(true);
      expect(meta.orientation, mods).toBeUndefined();
      expect(meta.exif, mods).toBeUndefined();
      expect(res.rawPayload.includes('fixture-owner'), mods).toBe(false);
    }
  });
});

describe('SVG sources', () => {
  it('are sanitised and served with a CSP that allows nothing', async () => {
    const res = await t.app.inject('/_ipx/_/images/evil.svg');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const svg = res.body;
    for (const bad of ['<script', 'onload', 'onclick', 'foreignObject', 'iframe', 'javascript:', 'evil.example', '<set', 'ENTITY']) {
      expect(svg, bad).not.toContain(bad);
    }
    expect(svg).toContain('<circle');
  });

  it('are rasterised when a raster format is asked', async () => {
    const res = await t.app.inject('/_ipx/f_png&w_20/images/evil.svg');
    expect(res.headers['content-type']).toBe('image/png');
    const meta = await metaOf(res.rawPayload);
    expect([meta.format, meta.width]).toEqual(['png', 20]);
  });
});

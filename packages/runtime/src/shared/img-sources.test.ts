import { describe, expect, it } from 'vitest';
import { IMAGE_BREAKPOINTS, IMAGE_DENSITIES } from '@tern/shared/config/constants';
import { IMAGE_WIDTHS, snapImageWidth } from '@tern/shared/config/image-widths';
import {
  configureImages,
  DEFAULT_IMAGE_BASE_URL,
  imageModifiersSegment,
  imageSources,
  imageUrl,
  parseSizes,
} from './images.js';

describe('image URLs', () => {
  it('writes modifiers as ipx reads them, `_` for none', () => {
    expect(imageModifiersSegment({})).toBe('_');
    expect(imageModifiersSegment({ width: 640, format: 'webp' })).toBe('w_640,f_webp');
    expect(imageModifiersSegment({ width: 200, height: 100, quality: 75 })).toBe('s_200x100,q_75');
    expect(imageModifiersSegment({ height: 90, fit: 'cover', background: '#fff', position: 'top' })).toBe('h_90,fit_cover,b_fff,pos_top');
  });

  it('builds /_ipx/{modifiers}/{src} with encoded paths', () => {
    expect(imageUrl('/covers/pasta.jpg', { width: 640, format: 'webp' })).toBe('/_ipx/w_640,f_webp/covers/pasta.jpg');
    expect(imageUrl('covers/a b.png')).toBe('/_ipx/_/covers/a%20b.png');
    expect(imageUrl('/汉字.png', { width: 10 })).toBe('/_ipx/w_10/%E6%B1%89%E5%AD%97.png');
    expect(imageUrl('/already%20encoded.png')).toBe('/_ipx/_/already%20encoded.png');
    expect(imageUrl('https://example.com/x.png', { width: 5 })).toBe('/_ipx/w_5/https://example.com/x.png');
    expect(imageUrl('/x.png', {}, '/assets/_ipx')).toBe('/assets/_ipx/_/x.png');
  });
});

describe('shared image widths', () => {
  it('hold every breakpoint x density, no step above 1.25x, each width its own snap', () => {
    expect(IMAGE_WIDTHS).toEqual([320, 384, 448, 512, 576, 640, 768, 896, 1024, 1280, 1536, 1792, 2048, 2560, 3072]);
    for (const breakpoint of Object.values(IMAGE_BREAKPOINTS)) {
      for (const density of IMAGE_DENSITIES) expect(IMAGE_WIDTHS).toContain(breakpoint * density);
    }
    IMAGE_WIDTHS.slice(1).forEach((width, i) => expect(width / IMAGE_WIDTHS[i]!).toBeLessThanOrEqual(1.25));
    for (const width of IMAGE_WIDTHS) expect(snapImageWidth(width)).toBe(width);
    expect(snapImageWidth(340)).toBe(384);
    expect(snapImageWidth(5000)).toBe(3072);
  });
});

describe('srcset', () => {
  it('without sizes: the width at each density, snapped, described by width, sized at `width` px, webp by default', () => {
    // 400 and 800 are not widths the service returns: it would answer 448 and 896.
    expect(imageSources('/a.jpg', { width: 400, height: 300 })).toEqual({
      src: '/_ipx/s_448x336,f_webp/a.jpg',
      srcset: '/_ipx/s_448x336,f_webp/a.jpg 448w, /_ipx/s_896x672,f_webp/a.jpg 896w',
      sizes: '400px',
    });
    expect(IMAGE_DENSITIES).toEqual([1, 2]);
  });

  it('asks only for widths of the shared list, so each descriptor is the width that comes back', () => {
    const out = imageSources('/a.jpg', { width: 1600, height: 900, sizes: '100vw sm:50vw lg:340px' });
    const table = out.srcset!.split(', ').map((entry) => entry.split(' ') as [string, string]);
    for (const [url, descriptor] of table) {
      const width = Number(descriptor.replace('w', ''));
      expect(IMAGE_WIDTHS).toContain(width);
      expect(url).toContain(`s_${width}x${Math.round((width * 9) / 16)},`);
    }
    // 340 would come back as 384 (and 680 as 768): no candidate promises less than it gets.
    expect(table.map(([, w]) => w)).toEqual(['320w', '384w', '512w', '640w', '768w', '1024w', '1280w']);
  });

  it('never describes a candidate as wider than the source: the service does not enlarge', () => {
    const out = imageSources('/a.jpg', { width: 1600, height: 900, sizes: '100vw', sourceWidth: 1600 });
    const table = out.srcset!.split(', ').map((entry) => entry.split(' '));
    expect(table.map(([, w]) => w)).toEqual(['320w', '640w', '768w', '1024w', '1280w', '1536w', '1600w']);
    // The 1600 px source is asked for at the next snapped width, 2048, which comes back at 1600.
    expect(table.at(-1)?.[0]).toBe('/_ipx/s_2048x1152,f_webp/a.jpg');
    expect(out.src).toBe('/_ipx/s_2048x1152,f_webp/a.jpg');
  });

  it('a full-width image covers every breakpoint at 1x and 2x', () => {
    const out = imageSources('/a.jpg', { width: 1536, sizes: '100vw' });
    const widths = out.srcset?.split(', ').map((entry) => Number(entry.split(' ')[1]?.replace('w', '')));
    expect(Object.values(IMAGE_BREAKPOINTS)).toEqual([320, 640, 768, 1024, 1280, 1536]);
    expect(widths).toEqual([320, 640, 768, 1024, 1280, 1536, 2048, 2560, 3072]);
    expect(out.sizes).toBe('100vw');
    expect(out.src).toBe('/_ipx/w_3072,f_webp/a.jpg');
  });

  it('mobile-first sizes: each entry up to the next breakpoint, media one pixel below it', () => {
    const out = imageSources('/a.jpg', { width: 800, height: 400, sizes: '100vw md:50vw lg:400px', format: 'avif' });
    expect(out.sizes).toBe('(max-width: 767px) 100vw, (max-width: 1023px) 50vw, 400px');
    const table = out.srcset?.split(', ').map((entry) => entry.split(' '));
    // 100vw below md: 320, 640, 768; 50vw from md to lg: 384, 512; 400px from lg; then 2x of each;
    // each snapped up to the shared list (400 -> 448, 800 -> 896).
    expect(table?.map(([, w]) => w)).toEqual(['320w', '384w', '448w', '512w', '640w', '768w', '896w', '1024w', '1280w', '1536w']);
    expect(table?.[0]?.[0]).toBe('/_ipx/s_320x160,f_avif/a.jpg');
  });

  it('rejects unknown breakpoints and units', () => {
    expect(() => parseSizes('huge:50vw')).toThrow(/Unknown image breakpoint "huge"/);
    expect(() => parseSizes('50em')).toThrow(/vw or px/);
    expect(() => parseSizes('  ')).toThrow(/empty/);
    expect(parseSizes('sm:300 100vw')).toEqual([
      { from: 0, size: '100vw' },
      { from: 640, size: '300px' },
    ]);
  });
});

describe('remembered image sources', () => {
  it('answers a repeated request with equal, fresh objects, and follows a new base URL', () => {
    const options = { width: 640, height: 360, sizes: '100vw md:50vw' };
    const first = imageSources('/covers/a.jpg', options);
    first.src = 'changed';
    const again = imageSources('/covers/a.jpg', options);
    expect(again.src).not.toBe('changed');
    expect(again).toEqual(imageSources('/covers/a.jpg', { ...options }));
    expect(imageSources('/covers/a.jpg', { ...options, quality: 50 }).src).toContain('q_50');
    configureImages({ baseURL: '/assets/_ipx' });
    try {
      expect(imageSources('/covers/a.jpg', options).src.startsWith('/assets/_ipx/')).toBe(true);
    } finally {
      configureImages({ baseURL: DEFAULT_IMAGE_BASE_URL });
    }
    expect(imageSources('/covers/a.jpg', options).src.startsWith(`${DEFAULT_IMAGE_BASE_URL}/`)).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { parseImageConfig } from './config.js';
import { modifiersKey, parseModifiers } from './modifiers.js';
import { OutputFormats } from './output-format.js';
import { expectedOutputSize } from './output-size.js';
import { parseImagePath } from './request-path.js';
import { snapWidth, snapWidthSet } from './snap-widths.js';
import { IMAGE_WIDTHS } from '@tern/shared/config/image-widths';

const withoutAvif = new OutputFormats({ IMAGE_AVIF: false });
const withAvif = new OutputFormats({ IMAGE_AVIF: true });
const ctx = { maxDimension: 4096, formats: withoutAvif };

describe('request path', () => {
  it('splits modifiers from a local or remote source as @nuxt/image builds them', () => {
    expect(parseImagePath('/_ipx/f_webp&q_75/image.jpg')).toEqual({ modifiers: 'f_webp&q_75', source: '/image.jpg', remote: false });
    expect(parseImagePath('/_ipx/s_200x200/%E6%B1%89%E5%AD%97.png').source).toBe('/汉字.png');
    expect(parseImagePath('/_ipx/w_50/images/a.png?v=3').source).toBe('/images/a.png');
    expect(parseImagePath('/_ipx/_/https://cdn.example/a.png?x=1')).toEqual({
      modifiers: '_',
      source: 'https://cdn.example/a.png?x=1',
      remote: true,
    });
    expect(parseImagePath('/_ipx/_/https:/cdn.example/a.png').source).toBe('https://cdn.example/a.png');
  });
});

describe('modifiers', () => {
  it('normalise spellings to one cache key', () => {
    const a = modifiersKey(parseModifiers('w_100,q_80,f_webp', ctx));
    const b = modifiersKey(parseModifiers('format:webp&quality=80&width_100', ctx));
    expect(a).toBe(b);
    expect(parseModifiers('_', ctx)).toEqual({});
    expect(parseModifiers('b_000000&tint_fff', ctx)).toEqual({ background: '#000000', tint: '#fff' });
    expect(parseModifiers('extend_5&trim_12', ctx)).toEqual({ extend: '5_5_5_5', trim: '{"threshold":12}' });
  });

  it('avif is refused unless enabled', () => {
    expect(() => parseModifiers('f_avif', ctx)).toThrow(/AVIF output is disabled/);
    expect(parseModifiers('f_avif', { ...ctx, formats: withAvif })).toEqual({ format: 'avif' });
  });
});

describe('format negotiation', () => {
  it('prefers avif (when enabled) then webp; wildcards give webp; q=0 refuses', () => {
    expect(withAvif.negotiate('image/avif,image/webp,*/*', false)).toBe('avif');
    expect(withoutAvif.negotiate('image/avif,image/webp,*/*', false)).toBe('webp');
    expect(withAvif.negotiate('*/*', false)).toBe('webp');
    expect(withoutAvif.negotiate('image/webp;q=0,image/png', false)).toBe('png');
    expect(withoutAvif.negotiate(undefined, false)).toBe('webp');
    expect(withoutAvif.negotiate('image/gif', true)).toBe('gif');
  });
});

describe('output size and snapping', () => {
  it('predicts the output of resize, extend, rotate and extract', () => {
    const src = { width: 1200, height: 800 };
    expect(expectedOutputSize(src, { width: '300' })).toEqual({ width: 300, height: 200 });
    expect(expectedOutputSize(src, { width: '3000' })).toEqual(src);
    expect(expectedOutputSize(src, { width: '3000', enlarge: '' })).toEqual({ width: 3000, height: 2000 });
    expect(expectedOutputSize(src, { resize: '100x100', fit: 'inside' })).toEqual({ width: 100, height: 67 });
    expect(expectedOutputSize(src, { extend: '1_2_3_4' })).toEqual({ width: 1206, height: 804 });
    expect(expectedOutputSize(src, { rotate: '90' })).toEqual({ width: 800, height: 1200 });
  });

  it('snaps to the shared widths (breakpoints x densities and steps between) plus placeholder widths', () => {
    const set = snapWidthSet([10, 20], 4096);
    expect(set).toEqual([10, 20, ...IMAGE_WIDTHS]);
    expect(snapWidth(321, set)).toBe(384);
    expect(snapWidthSet([], 1000).at(-1)).toBe(896);
    expect(snapWidth(5000, set)).toBe(3072);
  });
});

describe('config', () => {
  it('has the documented defaults and refuses bad values naming the variable', () => {
    const config = parseImageConfig({});
    expect(config.PORT).toBe(3002);
    expect(config.IMAGE_MAX_DIMENSION).toBe(4096);
    expect(config.IMAGE_AVIF).toBe(false);
    expect(config.IMAGE_CACHE_DIR).toMatch(/dist[/\\]image-cache$/);
    expect(() => parseImageConfig({ IMAGE_MAX_DIMENSION: 'big' })).toThrow(/IMAGE_MAX_DIMENSION/);
    expect(() => parseImageConfig({ IMAGE_SNAP_EXTRA_WIDTHS: '10,x' })).toThrow(/IMAGE_SNAP_EXTRA_WIDTHS/);
    expect(() => parseImageConfig({ IMAGE_FINGERPRINT_PATTERN: '(' })).toThrow(/IMAGE_FINGERPRINT_PATTERN/);
  });
});

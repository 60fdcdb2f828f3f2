/**
 * One descriptor per format (formats.ts): every part of the service that knows a format reads it
 * from there, so a descriptor added to a list changes the modifier check, the negotiation, the
 * default, the probe, the cache's file names, the sanitiser and the encoder with no other edit.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { parseImageConfig } from './config.js';
import { FORMAT_FLAGS, IMAGE_FORMATS, formatNamed, formatOfExt, formatOfMime, sniffFormat, type ImageFormat } from './formats.js';
import { OutputFormats, outputFor, outputFormatsOf } from './output-format.js';
import { parseModifiers } from './modifiers.js';
import { isSafeReference } from './svg-sanitize.js';
import { createTransformer, encoderInternals } from './transform.js';
import type { LoadedSource } from './source.js';

async function sample(format: ImageFormat): Promise<Buffer> {
  const base = sharp({ create: { width: 32, height: 24, channels: 3, background: '#c85a1e' } });
  if (format.name === 'svg') return Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>');
  // sharp writes HEIF only with the AVIF codec, whose brand is avif: take the file and change its brand.
  if (format.name === 'heif') {
    const avif = await base.avif().toBuffer();
    return Buffer.concat([avif.subarray(0, 8), Buffer.from('heic'), avif.subarray(12)]);
  }
  return base.toFormat(format.name as keyof sharp.FormatEnum).toBuffer();
}

describe('the format descriptors', () => {
  it('name each format, alias, MIME type and extension once', () => {
    const names = IMAGE_FORMATS.flatMap((f) => [f.name, ...(f.aliases ?? [])]);
    expect(new Set(names).size).toBe(names.length);
    expect(new Set(IMAGE_FORMATS.map((f) => f.mime)).size).toBe(IMAGE_FORMATS.length);
    for (const f of IMAGE_FORMATS) {
      expect(formatNamed(f.name)).toBe(f);
      expect(formatOfMime(f.mime)).toBe(f);
      expect(formatOfExt(f.ext)).toBe(f);
    }
    expect(formatNamed('jpg')?.name).toBe('jpeg');
    expect(formatOfMime('svg+xml')?.name).toBe('svg');
  });

  it('recognise a real file of every format from its magic bytes, and nothing else', async () => {
    for (const format of IMAGE_FORMATS) expect(sniffFormat(await sample(format))?.name, format.name).toBe(format.name);
    expect(sniffFormat(Buffer.from('%PDF-1.7 not an image'))).toBeUndefined();
    expect(sniffFormat(Buffer.from('<html><body>svg</body></html>'))).toBeUndefined();
  });

  it('declare the config flag of each opt-in format, off by default', () => {
    expect(FORMAT_FLAGS).toEqual(['IMAGE_AVIF']);
    expect(parseImageConfig({}).IMAGE_AVIF).toBe(false);
    expect(outputFormatsOf(parseImageConfig({ IMAGE_AVIF: 'true' })).offered.map((f) => f.name)).toContain('avif');
    expect(outputFormatsOf(parseImageConfig({})).offered.map((f) => f.name)).not.toContain('avif');
  });

  it('let an SVG inline exactly the types marked inlineInSvg', () => {
    for (const f of IMAGE_FORMATS) expect(isSafeReference(`data:${f.mime};base64,AAAA`), f.name).toBe(f.inlineInSvg === true);
    expect(isSafeReference('data:text/html;base64,AAAA')).toBe(false);
  });
});

describe('a format added as one descriptor', () => {
  // HEIF as an output, declared once: nothing else changes.
  const heif: ImageFormat = {
    ...formatNamed('heif')!,
    aliases: ['heic'],
    output: { method: 'avif', encoder: {}, negotiation: { still: true, animated: false, namedOnly: true } },
  };
  const formats = new OutputFormats({}, [heif, ...IMAGE_FORMATS.filter((f) => f.name !== 'heif')]);

  it('is accepted by f_ (and its alias) and chosen by f_auto when the client names it first', () => {
    expect(parseModifiers('f_heic', { maxDimension: 4096, formats })).toEqual({ format: 'heif' });
    expect(formats.negotiate('image/heif,image/webp', false)).toBe('heif');
    expect(formats.negotiate('image/*', false)).toBe('webp');
  });

  it('is refused where it is not declared, with the formats that are', () => {
    const plain = outputFormatsOf(parseImageConfig({}));
    expect(() => parseModifiers('f_heic', { maxDimension: 4096, formats: plain })).toThrow(/one of avif|one of webp/);
  });
});

describe('negotiation and the default, read from the descriptors', () => {
  const formats = new OutputFormats({ IMAGE_AVIF: true });

  it('prefers the list order among equal qualities, and AVIF only when named', () => {
    expect(formats.negotiate('image/avif,image/webp,image/jpeg', false)).toBe('avif');
    expect(formats.negotiate('image/*', false)).toBe('webp');
    expect(formats.negotiate('image/png', false)).toBe('png');
    expect(formats.negotiate('text/html', false)).toBe('jpeg');
    expect(formats.negotiate('text/html', true)).toBe('gif');
    expect(formats.negotiate(undefined, true)).toBe('webp');
  });

  it('serves an SVG as it is, keeps the frames of an animated GIF or WebP, and writes the default otherwise', () => {
    expect(outputFor('default', formatNamed('svg')!, 1, formats)).toEqual({ format: undefined, keepFrames: false });
    expect(outputFor('default', formatNamed('gif')!, 3, formats)).toEqual({ format: 'webp', keepFrames: true });
    expect(outputFor('default', formatNamed('png')!, 1, formats)).toEqual({ format: 'webp', keepFrames: false });
    expect(outputFor('png', formatNamed('gif')!, 3, formats)).toEqual({ format: 'png', keepFrames: false });
  });

  it('refuses a list without a default format', () => {
    const noDefault = IMAGE_FORMATS.map((f) => ({ ...f, isDefault: false }));
    expect(() => new OutputFormats({}, noDefault)).toThrow(/declares no default output format/);
  });
});

describe('encoder options', () => {
  const source = async (): Promise<LoadedSource> => {
    const data = await sharp({
      create: { width: 200, height: 150, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } },
    })
      .png()
      .toBuffer();
    return { id: '/noise.png', data, identity: 'noise', mtime: new Date(0) };
  };

  it('reach sharp as its internal settings', () => {
    const jpeg = { ...formatNamed('jpeg')!, output: { ...formatNamed('jpeg')!.output!, encoder: { quality: 20, mozjpeg: true } } };
    expect(encoderInternals(jpeg)).toMatchObject({ jpegQuality: 20 });
    expect(encoderInternals(formatNamed('svg')!)).toEqual({});
  });

  it('change what the transform writes', async () => {
    const low = { ...formatNamed('jpeg')!, output: { ...formatNamed('jpeg')!.output!, encoder: { quality: 10 } } };
    const plain = createTransformer({ maxInputPixels: 1e8, timeoutMs: 10_000 });
    const rough = createTransformer({
      maxInputPixels: 1e8,
      timeoutMs: 10_000,
      formats: [low, ...IMAGE_FORMATS.filter((f) => f.name !== 'jpeg')],
    });
    const target = { format: 'jpeg', keepFrames: false };
    const [a, b] = [await plain(await source(), {}, target), await rough(await source(), {}, target)];
    expect([a.format, b.format]).toEqual(['jpeg', 'jpeg']);
    expect(b.data.length).toBeLessThan(a.data.length / 2);
    // The q_ modifier still wins over the descriptor's quality.
    const asked = await rough(await source(), { quality: '90' }, target);
    expect(asked.data.length).toBeGreaterThan(b.data.length * 2);
  });
});

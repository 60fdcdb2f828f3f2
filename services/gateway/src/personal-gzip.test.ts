import { randomBytes } from 'node:crypto';
import { crc32, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { acceptsGzip, crc32Combine, gzipHead, gzipRest, gzipSegments, storedBlocks } from './personal-gzip.js';

describe('a stitched page in gzip from pieces deflated once', () => {
  const segments = [
    '<html><head><style>a{}</style></head><body><header>',
    '</header><main>',
    '<p>an article</p>',
    '</main></body></html>',
  ].map((s) => Buffer.from(s.repeat(50)));
  const shared = gzipSegments(segments);
  const stitch = (parts: string[]) =>
    gunzipSync(
      Buffer.concat([
        gzipHead(shared),
        ...gzipRest(
          shared,
          parts.map((part) => Buffer.from(part)),
        ),
      ]),
    );
  const expected = (parts: string[]) =>
    Buffer.concat(segments.flatMap((segment, index) => (index < parts.length ? [segment, Buffer.from(parts[index]!)] : [segment])));

  it('decodes (gunzip checks the CRC and the length) to the shared bytes with each part between them', () => {
    for (const parts of [
      ['<b>Ada</b>', '', '<button>Saved ✓</button>'],
      ['x', 'y', 'z'.repeat(70_000)],
    ])
      expect(stitch(parts).equals(expected(parts))).toBe(true);
  });

  it('the same pieces serve every visitor: the parts may differ in length and content', () => {
    expect(stitch(['a', 'b', 'c']).toString()).not.toBe(stitch(['Grace', 'bb', '']).toString());
    expect(stitch(['Grace', 'bb', '']).equals(expected(['Grace', 'bb', '']))).toBe(true);
  });

  it('is smaller than the identity bytes', () => {
    const body = Buffer.concat([
      gzipHead(shared),
      ...gzipRest(
        shared,
        ['<b>Ada</b>', 'x', 'y'].map((p) => Buffer.from(p)),
      ),
    ]);
    expect(body.length).toBeLessThan(expected(['<b>Ada</b>', 'x', 'y']).length / 5);
  });
});

describe('crc32Combine', () => {
  it('equals the CRC-32 of the concatenation', () => {
    for (const [a, b] of [
      [0, 0],
      [1, 1],
      [100, 3],
      [5000, 70_000],
      [0, 17],
    ]) {
      const left = randomBytes(a!);
      const right = randomBytes(b!);
      expect(crc32Combine(crc32(left), crc32(right), right.length)).toBe(crc32(Buffer.concat([left, right])));
    }
  });
});

describe('storedBlocks', () => {
  it('splits at 65535 bytes, each block with its length and its complement', () => {
    const blocks = storedBlocks(Buffer.alloc(70_000, 1));
    expect(blocks.length).toBe(70_000 + 10);
    expect(blocks.readUInt16LE(1)).toBe(0xffff);
    expect(blocks.readUInt16LE(3)).toBe(0);
    expect(blocks.readUInt16LE(5 + 0xffff + 1)).toBe(70_000 - 0xffff);
  });
});

describe('acceptsGzip', () => {
  it('reads the q-values', () => {
    expect(acceptsGzip('br, gzip')).toBe(true);
    expect(acceptsGzip('gzip;q=0, br')).toBe(false);
    expect(acceptsGzip('*')).toBe(true);
    expect(acceptsGzip('br')).toBe(false);
    expect(acceptsGzip(undefined)).toBe(false);
  });
});

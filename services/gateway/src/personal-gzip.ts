/**
 * A stitched page (personal-holes.ts) in gzip without compressing it per request. The shared
 * segments between the parts are deflated once per entry, each as a fresh raw deflate stream
 * ended by a full flush: byte-aligned and referring to nothing before it, so any bytes may stand
 * between them. A visitor's parts (small: about 5 KB of a 40 KB page) go between them as stored
 * (uncompressed) deflate blocks, which cost a copy. The gzip trailer's CRC-32 is combined from
 * each piece's own (zlib's crc32_combine), so the shared bytes are never read again per request.
 * The answer is about a quarter of the identity bytes, for less CPU than writing those.
 */
import { constants, crc32, deflateRawSync } from 'node:zlib';

/** The shared pieces of one entry, made once: segment i lies before part i (the last after them all). */
export interface GzipSegments {
  deflated: Buffer[];
  crcs: number[];
  lengths: number[];
}

/** gzip's header: deflate, no name, no mtime, Unix. */
const HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0x03]);
/** The last block: an empty stored block with BFINAL set. */
const LAST_BLOCK = Buffer.from([0x01, 0x00, 0x00, 0xff, 0xff]);
const STORED_MAX = 0xffff;

/** Whether the request takes gzip (q > 0 for gzip or `*`). */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  let gzip: number | undefined;
  let any: number | undefined;
  for (const part of (acceptEncoding ?? '').toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)/.exec(p)?.[1]).find(Boolean);
    const weight = q === undefined ? 1 : Number(q);
    if (name === 'gzip' || name === 'x-gzip') gzip = weight;
    else if (name === '*') any = weight;
  }
  return (gzip ?? any ?? 0) > 0;
}

export function gzipSegments(segments: Buffer[]): GzipSegments {
  return {
    // Level 9 once per entry; Z_FULL_FLUSH: no back-reference into the bytes that will precede it.
    deflated: segments.map((segment) => deflateRawSync(segment, { level: 9, finishFlush: constants.Z_FULL_FLUSH })),
    crcs: segments.map((segment) => crc32(segment)),
    lengths: segments.map((segment) => segment.length),
  };
}

/** `bytes` as stored deflate blocks (not final), each at most 65535 bytes. */
export function storedBlocks(bytes: Buffer): Buffer {
  const blocks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += STORED_MAX) {
    const chunk = bytes.subarray(at, at + STORED_MAX);
    const head = Buffer.alloc(5);
    head.writeUInt16LE(chunk.length, 1);
    head.writeUInt16LE(~chunk.length & 0xffff, 3);
    blocks.push(head, chunk);
  }
  return Buffer.concat(blocks);
}

const POLY = 0xedb88320;

/** a(x) * b(x) modulo the CRC-32 polynomial (reflected), as zlib's multmodp. */
function multmodp(a: number, b: number): number {
  let m = 0x80000000;
  let p = 0;
  for (;;) {
    if (a & m) {
      p ^= b;
      if ((a & (m - 1)) === 0) break;
    }
    m >>>= 1;
    b = b & 1 ? (b >>> 1) ^ POLY : b >>> 1;
  }
  return p >>> 0;
}

/** X2N[k] = x^(2^k) modulo the polynomial. */
const X2N: number[] = [0x40000000];
for (let k = 1; k < 32; k++) X2N.push(multmodp(X2N[k - 1]!, X2N[k - 1]!));

/** x^(n * 2^k) modulo the polynomial, as zlib's x2nmodp. */
function x2nmodp(n: number, k: number): number {
  let p = 0x80000000;
  while (n) {
    if (n & 1) p = multmodp(X2N[k & 31]!, p);
    n = Math.floor(n / 2);
    k++;
  }
  return p;
}

/** The CRC-32 of A then B from A's, B's and B's length (zlib's crc32_combine). */
export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  return (multmodp(x2nmodp(lengthB, 3), crcA) ^ crcB) >>> 0;
}

/** The gzip header and the first shared segment: what goes before the parts are in. */
export function gzipHead(shared: GzipSegments): Buffer {
  return Buffer.concat([HEADER, shared.deflated[0]!]);
}

/** The rest of the gzip body after `gzipHead`: each part stored, the shared segments, the trailer. */
export function gzipRest(shared: GzipSegments, parts: Buffer[]): Buffer[] {
  const out: Buffer[] = [];
  let crc = shared.crcs[0]!;
  let length = shared.lengths[0]!;
  parts.forEach((part, index) => {
    out.push(storedBlocks(part), shared.deflated[index + 1]!);
    crc = crc32Combine(crc32Combine(crc, crc32(part), part.length), shared.crcs[index + 1]!, shared.lengths[index + 1]!);
    length += part.length + shared.lengths[index + 1]!;
  });
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc, 0);
  trailer.writeUInt32LE(length % 2 ** 32, 4);
  out.push(LAST_BLOCK, trailer);
  return out;
}

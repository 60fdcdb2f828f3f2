/**
 * A cached answer: status, the headers that belong to it, its ETag, when it was stored and how
 * long it stays fresh or may be served stale, and the body, compressed with brotli and gzip once,
 * the first time a client asks for that encoding (a page rendered for one visitor costs no
 * compression). Stored as one buffer (a JSON head, then the bodies) in memory, Redis or a file.
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { remembered } from '@tern/shared/process/remembered';
import type { CacheRule } from '@tern/shared/route-rules/types';
import { cacheableCsp } from './cached-csp.js';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

export type Encoding = 'br' | 'gzip' | 'identity';

export interface CacheEntry {
  /** The cache key (cache-key.ts), so a purge by path can find the entry in any store. */
  key: string;
  status: number;
  headers: Record<string, string>;
  etag: string;
  storedAt: number;
  /** Fresh until (ms); null: until the next build. */
  freshUntil: number | null;
  /** May be served stale, while one request refreshes it, until (ms); null: no limit. */
  staleUntil: number | null;
  bodies: { identity: Buffer; br?: Buffer | undefined; gzip?: Buffer | undefined };
}

/** Headers of the rendered answer that belong to every copy of it (never Set-Cookie, never per-request ones). */
const KEPT_HEADERS = [
  'content-type',
  'cache-control',
  'content-security-policy',
  'x-build-id',
  'vary',
  'x-content-type-options',
  'x-robots-tag',
  'content-language',
  // The page is the same for everyone but its personal parts (../personal-holes.ts).
  'x-personal',
];

/** A 404 is remembered briefly, so a flood of one missing page costs one render per few seconds. */
export const NOT_FOUND_SECONDS = 10;

export function lifetimes(rule: CacheRule, status: number, now: number): Pick<CacheEntry, 'freshUntil' | 'staleUntil'> {
  if (status === 404) return { freshUntil: now + NOT_FOUND_SECONDS * 1000, staleUntil: now + NOT_FOUND_SECONDS * 1000 };
  const freshUntil = rule.maxAge === null ? null : now + rule.maxAge * 1000;
  if (freshUntil === null || rule.staleMaxAge === null) return { freshUntil, staleUntil: null };
  return { freshUntil, staleUntil: freshUntil + rule.staleMaxAge * 1000 };
}

export const isFresh = (entry: CacheEntry, now: number) => entry.freshUntil === null || entry.freshUntil > now;
/** Past fresh but still allowed to answer while one request refreshes it. */
export const mayServeStale = (entry: CacheEntry, now: number) => entry.staleUntil === null || entry.staleUntil > now;

/** The `Age` of an answer from this entry, in whole seconds. */
export const ageOf = (entry: CacheEntry, now: number): number => Math.max(0, Math.floor((now - entry.storedAt) / 1000));

/** The entry's body in that encoding; undefined when it is not made yet. */
export const bodyIn = (entry: CacheEntry, encoding: Encoding): Buffer | undefined =>
  encoding === 'identity' ? entry.bodies.identity : entry.bodies[encoding];

export async function createEntry(
  key: string,
  rendered: { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer },
  rule: CacheRule,
  now = Date.now(),
): Promise<CacheEntry> {
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = rendered.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  let body = rendered.body;
  if (headers['content-security-policy'] && headers['content-type']?.startsWith('text/html')) {
    const cacheable = cacheableCsp(body.toString('utf8'), headers['content-security-policy']);
    body = Buffer.from(cacheable.html, 'utf8');
    headers['content-security-policy'] = cacheable.policy;
  }
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  return {
    key,
    status: rendered.status,
    headers,
    etag,
    storedAt: now,
    ...lifetimes(rule, rendered.status, now),
    bodies: { identity: body },
  };
}

/** The entry with its body also in `encoding`, compressed at the best level (it is done once). */
export async function withEncoding(entry: CacheEntry, encoding: 'br' | 'gzip'): Promise<CacheEntry> {
  if (entry.bodies[encoding]) return entry;
  const body = entry.bodies.identity;
  const compressed =
    encoding === 'br'
      ? await brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } })
      : await gzipAsync(body, { level: 9 });
  return { ...entry, bodies: { ...entry.bodies, [encoding]: compressed } };
}

export function entrySize(entry: CacheEntry): number {
  return entry.bodies.identity.length + (entry.bodies.br?.length ?? 0) + (entry.bodies.gzip?.length ?? 0) + 512;
}

/** The encoding to send: the smallest the client accepts (q=0 refuses one). */
function encodingOf(acceptEncoding: string): Encoding {
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([\d.]+)/.exec(p)?.[1]).find(Boolean);
    accepted.set(name, q === undefined ? 1 : Number(q));
  }
  const ok = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  if (ok('br')) return 'br';
  if (ok('gzip')) return 'gzip';
  return 'identity';
}

// Asked on every hit, where browsers send the same few strings: each is parsed once.
const rememberedEncoding = remembered(encodingOf, { maxEntries: 64, maxKeyLength: 256 });

export function pickEncoding(acceptEncoding: string | undefined): Encoding {
  return rememberedEncoding(acceptEncoding ?? '');
}

interface Head extends Omit<CacheEntry, 'bodies'> {
  sizes: [number, number, number];
}

export function encodeEntry(entry: CacheEntry): Buffer {
  const { bodies, ...rest } = entry;
  // -1: that encoding has not been made yet.
  const head: Head = { ...rest, sizes: [bodies.identity.length, bodies.br?.length ?? -1, bodies.gzip?.length ?? -1] };
  const json = Buffer.from(JSON.stringify(head), 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32BE(json.length);
  return Buffer.concat([length, json, bodies.identity, bodies.br ?? Buffer.alloc(0), bodies.gzip ?? Buffer.alloc(0)]);
}

/** The entry a buffer holds; null for anything that is not one (a truncated file, an old format). */
export function decodeEntry(buffer: Buffer): CacheEntry | null {
  try {
    const length = buffer.readUInt32BE(0);
    const { sizes, ...rest } = JSON.parse(buffer.subarray(4, 4 + length).toString('utf8')) as Head;
    let at = 4 + length;
    const take = (size: number) => (size < 0 ? undefined : buffer.subarray(at, (at += size)));
    const bodies = { identity: take(sizes[0])!, br: take(sizes[1]), gzip: take(sizes[2]) };
    if (at !== buffer.length || !bodies.identity || typeof rest.etag !== 'string') return null;
    return { ...rest, bodies };
  } catch {
    return null;
  }
}

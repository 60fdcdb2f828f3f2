/**
 * Hashed client files (`{ASSETS_PREFIX}{name}`) of any kept build, so a tab still on an old build
 * never misses a chunk or a stylesheet (docs/decisions/skew-protection.md). In order: the gateway's
 * memory LRU, then the gateway's own copy of a client build (CLIENT_DIR, when the image has one),
 * then the shared asset store the renderers publish to; anything else goes on to the renderer. A hashed name
 * is one content forever, so every answer is immutable, in the smallest encoding the client takes.
 */
import type { FastifyRequest } from 'fastify';
import { readFile, readdir } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { isAssetName, type AssetEncoding, type AssetStore, type StoredAsset } from '@tern/shared/build-store';
import { Lru } from '@tern/shared/http-cache/lru';
import { pickEncoding } from './render-cache/cache-entry.js';
import type { AssetSourceName } from './request-state.js';
import type { Step } from './step.js';

export const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};

export function contentTypeOf(name: string): string {
  return TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream';
}

/** The encodings to look for, best first, for an Accept-Encoding header. */
export function encodingsFor(acceptEncoding: string | undefined): AssetEncoding[] {
  const best = pickEncoding(acceptEncoding);
  return best === 'br' ? ['br', 'gzip', 'identity'] : best === 'gzip' ? ['gzip', 'identity'] : ['identity'];
}

export interface AssetSource {
  get(name: string, encodings: readonly AssetEncoding[]): Promise<StoredAsset | null>;
}

const SUFFIX: Record<AssetEncoding, string> = { identity: '', br: '.br', gzip: '.gz' };

/** A client build on this machine's disk (listed once: a build's folder never changes); null without one. */
export async function localAssets(dir: string | undefined): Promise<AssetSource | null> {
  if (!dir) return null;
  const names = new Set(await readdir(dir).catch(() => [] as string[]));
  if (names.size === 0) return null;
  return {
    async get(name, encodings) {
      for (const encoding of encodings) {
        const file = `${name}${SUFFIX[encoding]}`;
        if (names.has(file)) return { encoding, body: await readFile(join(dir, file)) };
      }
      return null;
    },
  };
}

export interface ClientAssetsOptions {
  assetsPrefix: string;
  local: AssetSource | null;
  store: AssetStore | null;
  /** Bytes of store answers kept in memory. */
  memoryBytes: number;
}

export interface ClientAssetStats {
  served: Record<AssetSourceName, number>;
}

function assetName(request: FastifyRequest, path: string, prefix: string): string | null {
  // Every request passes here, cache hits included: nothing is sliced for a path outside the prefix.
  if ((request.method !== 'GET' && request.method !== 'HEAD') || !path.startsWith(prefix)) return null;
  const name = path.slice(prefix.length);
  // Source maps are never served; a twin is asked for by its plain name.
  return isAssetName(name) && !/\.(map|br|gz)$/.test(name) ? name : null;
}

export interface ClientFiles {
  step: Step;
  stats: ClientAssetStats;
}

export function clientFiles(options: ClientAssetsOptions): ClientFiles {
  const memory = new Lru<StoredAsset>({ maxEntries: 2000, maxSize: options.memoryBytes });
  const stats: ClientAssetStats = { served: { local: 0, memory: 0, store: 0 } };

  // Memory first, for the gateway's own files too: a hashed name never changes, and a read from
  // disk per request costs more than the request itself for the chunks every page loads.
  async function find(name: string, encodings: AssetEncoding[]): Promise<[StoredAsset, AssetSourceName] | null> {
    const key = `${name}\n${encodings[0]}`;
    const remembered = memory.get(key);
    if (remembered) return [remembered, 'memory'];
    const local = await options.local?.get(name, encodings).catch(() => null);
    // The store away is a miss: the renderer still has its own build's files.
    const found = local ?? (await options.store?.get(name, encodings).catch(() => null));
    if (!found) return null;
    memory.set(key, found, found.body.length);
    return [found, local ? 'local' : 'store'];
  }

  // Only a client file's name makes a promise: every other request passes at once.
  const step: Step = (request, reply, state) => {
    const name = assetName(request, state.path, options.assetsPrefix);
    if (!name) return false;
    return find(name, encodingsFor(request.headers['accept-encoding'])).then((found) => {
      if (!found) return false;
      const [asset, source] = found;
      stats.served[source]++;
      state.assetSource = source;
      reply
        .header('content-type', contentTypeOf(name))
        .header('cache-control', ASSET_CACHE_CONTROL)
        .header('vary', 'accept-encoding')
        .header('content-length', String(asset.body.length));
      if (asset.encoding !== 'identity') reply.header('content-encoding', asset.encoding);
      reply.send(request.method === 'HEAD' ? undefined : asset.body);
      return true;
    });
  };
  return { step, stats };
}

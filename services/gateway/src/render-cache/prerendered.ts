/**
 * Pages rendered at build time (`prerender: true`, packages/cli/src/prerender.ts): cache entries under
 * `{dir}/{buildId}/`, already compressed, served by the gateway to anonymous visitors with no
 * renderer involved. Which paths exist comes from the build's meta (`prerendered`).
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Lru } from '@tern/shared/http-cache/lru';
import type { CurrentBuild } from '../current-build.js';
import { decodeEntry, entrySize, type CacheEntry } from './cache-entry.js';

export function prerenderFileName(path: string): string {
  return `${createHash('sha256').update(path).digest('hex').slice(0, 40)}.bin`;
}

export interface Prerendered {
  /** The entry of `path` (a page or its payload) in the current build, if it was prerendered. */
  get(path: string, page: string): Promise<CacheEntry | null>;
  /** The entry of `path` in the current build if `get` has loaded it already: a hit with no wait. */
  peek(path: string): CacheEntry | undefined;
}

export function createPrerendered(dir: string, build: CurrentBuild): Prerendered {
  const loaded = new Lru<CacheEntry>({ maxEntries: 1000, maxSize: 64 * 1024 * 1024 });
  return {
    peek(path) {
      const buildId = build.info()?.id;
      return buildId ? loaded.get(`${buildId}:${path}`) : undefined;
    },
    async get(path, page) {
      const buildId = build.info()?.id;
      if (!buildId) return null;
      const meta = await build.meta(buildId);
      if (!meta?.prerendered.includes(page)) return null;
      const key = `${buildId}:${path}`;
      const known = loaded.get(key);
      if (known) return known;
      const entry = decodeEntry(await readFile(join(dir, buildId, prerenderFileName(path))).catch(() => Buffer.alloc(0)));
      if (!entry || entry.key !== path) return null;
      loaded.set(key, entry, entrySize(entry));
      return entry;
    },
  };
}

/** The memory-bounded LRU of collections, with the real files of small @iconify/json sets. */
import { describe, expect, it } from 'vitest';
import { IconSetCache, type IconSetLoader } from './icon-set-cache.js';
import { readIconSetFile } from './icon-set-file.js';
import { startIconsApp, testCatalogue } from './test-support/icons-app.js';

/** The real loader, counting how often each set is read from disk. */
async function countingLoader(): Promise<{ loader: IconSetLoader; reads: Map<string, number> }> {
  const catalogue = await testCatalogue();
  const reads = new Map<string, number>();
  const loader: IconSetLoader = async (prefix) => {
    reads.set(prefix, (reads.get(prefix) ?? 0) + 1);
    return readIconSetFile(catalogue.filePath(prefix), prefix);
  };
  return { loader, reads };
}

// Small real sets: about 22 KB to 34 KB of JSON each, so 44 KB to 68 KB by the cache's estimate.
const SMALL = ['bytesize', 'codex', 'websymbol', 'il', 'ei'];

describe('IconSetCache', () => {
  it('evicts the least recently used sets to stay under the memory bound', async () => {
    const { loader } = await countingLoader();
    const limit = 150_000;
    const cache = new IconSetCache(loader, limit);
    for (const prefix of SMALL) {
      await cache.get(prefix);
      expect(cache.stats().bytes).toBeLessThanOrEqual(limit);
    }
    const stats = cache.stats();
    expect(stats.evictions).toBeGreaterThan(0);
    expect(stats.prefixes).toContain('ei');
    expect(stats.prefixes).not.toContain('bytesize');
  });

  it('keeps a recently used set and evicts the older one instead', async () => {
    const { loader } = await countingLoader();
    const cache = new IconSetCache(loader, 120_000);
    await cache.get('bytesize');
    await cache.get('codex');
    await cache.get('bytesize'); // now the most recently used
    await cache.get('websymbol');
    expect(cache.stats().prefixes).toEqual(['bytesize', 'websymbol']);
  });

  it('never evicts pinned sets', async () => {
    const { loader } = await countingLoader();
    const cache = new IconSetCache(loader, 150_000);
    await cache.pin('bytesize');
    for (const prefix of SMALL.slice(1)) await cache.get(prefix);
    expect(cache.stats().prefixes[0]).toBe('bytesize');
  });

  it('serves a set larger than the bound without keeping it or evicting others', async () => {
    const { loader, reads } = await countingLoader();
    const cache = new IconSetCache(loader, 100_000);
    await cache.get('bytesize');
    const lucide = await cache.get('lucide');
    expect((await lucide.pick(['house'])).icons.house).toBeDefined();
    expect(cache.stats().prefixes).toEqual(['bytesize']);
    await cache.get('lucide');
    expect(reads.get('lucide')).toBe(2);
  });

  it('loads a set once for concurrent first requests', async () => {
    const { loader, reads } = await countingLoader();
    const cache = new IconSetCache(loader, 10_000_000);
    const sets = await Promise.all(Array.from({ length: 20 }, () => cache.get('lucide')));
    expect(reads.get('lucide')).toBe(1);
    expect(new Set(sets).size).toBe(1);
  });

  it('does not remember a failed load: the next request tries again', async () => {
    let fail = true;
    const { loader } = await countingLoader();
    const cache = new IconSetCache(async (prefix) => {
      if (fail) throw new Error('transient read error');
      return loader(prefix);
    }, 10_000_000);
    await expect(cache.get('bytesize')).rejects.toThrow('transient');
    fail = false;
    expect((await cache.get('bytesize')).prefix).toBe('bytesize');
  });
});

describe('the service under a small memory bound', () => {
  it('keeps answering while sets are evicted and reloaded, and loads once for concurrent requests', async () => {
    const { loader, reads } = await countingLoader();
    const { app, sets } = await startIconsApp({ preload: [], memoryLimitBytes: 150_000, loader });
    try {
      const burst = await Promise.all(
        Array.from({ length: 10 }, () => app.inject({ method: 'GET', url: '/api/_nuxt_icon/ei.json?icons=archive' })),
      );
      expect(burst.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
      expect(reads.get('ei')).toBe(1);
      for (const prefix of [...SMALL, ...SMALL]) {
        const response = await app.inject({ method: 'GET', url: `/api/_nuxt_icon/${prefix}.json?icons=x` });
        expect(response.statusCode).toBe(200);
        expect(sets.cache.stats().bytes).toBeLessThanOrEqual(150_000);
      }
      expect(sets.cache.stats().evictions).toBeGreaterThan(0);
    } finally {
      await app.close();
    }
  });
});

/**
 * The icon service's metrics, read from the icon-set cache's counters at scrape time: hits and
 * misses of `get`, loads from disk, evictions, and the bytes held against ICONS_MEMORY_LIMIT_MB.
 */
import type { Registry } from 'prom-client';
import { counterFrom, gaugeFrom } from '../../../lib/metrics.js';
import type { IconSetCache } from './icon-set-cache.js';

export function registerIconsMetrics(registry: Registry, cache: IconSetCache): void {
  counterFrom(
    registry,
    {
      name: 'icons_set_cache_requests_total',
      help: 'Icon set lookups: hit (in memory) or miss (loaded from disk, or joined a load in flight).',
      labelNames: ['result'] as const,
    },
    () => {
      const stats = cache.stats();
      return [
        [{ result: 'hit' }, stats.hits],
        [{ result: 'miss' }, stats.misses],
      ];
    },
  );
  counterFrom(
    registry,
    { name: 'icons_set_loads_total', help: 'Icon set files read and parsed (preloads included).' },
    () => cache.stats().loads,
  );
  counterFrom(
    registry,
    { name: 'icons_set_evictions_total', help: 'Icon sets dropped from memory to stay under the limit.' },
    () => cache.stats().evictions,
  );
  gaugeFrom(registry, { name: 'icons_set_cache_bytes', help: 'Approximate bytes of icon sets in memory.' }, () => cache.stats().bytes);
}

/**
 * The icon service's metrics, read from the icon-set cache's counters at scrape time: hits and
 * misses of `get`, loads from disk, evictions, the bytes held against ICONS_MEMORY_LIMIT_MB, and
 * what the loads read: bytes, whole files parsed and build-time indexes used instead.
 */
import type { Registry } from 'prom-client';
import { counterFrom, gaugeFrom } from '@tern/shared/telemetry/metrics';
import type { IconSetCache } from './icon-set-cache.js';
import type { IconReads } from './icon-set-file.js';

export function registerIconsMetrics(registry: Registry, cache: IconSetCache, reads: IconReads): void {
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
    { name: 'icons_set_loads_total', help: 'Icon sets loaded into memory, whole or by index (preloads included).' },
    () => cache.stats().loads,
  );
  counterFrom(
    registry,
    { name: 'icons_set_evictions_total', help: 'Icon sets dropped from memory to stay under the limit.' },
    () => cache.stats().evictions,
  );
  gaugeFrom(registry, { name: 'icons_set_cache_bytes', help: 'Approximate bytes of icon sets in memory.' }, () => cache.stats().bytes);
  counterFrom(registry, { name: 'icons_read_bytes_total', help: 'Bytes of icon data and indexes read from disk.' }, () => reads.bytesRead);
  counterFrom(
    registry,
    {
      name: 'icons_set_file_reads_total',
      help: 'Icon set loads by how: a whole @iconify/json file parsed, or its build-time index.',
      labelNames: ['kind'] as const,
    },
    () => [
      [{ kind: 'whole' }, reads.fullParses],
      [{ kind: 'index' }, reads.indexLoads],
    ],
  );
}

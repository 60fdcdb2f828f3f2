/**
 * The render cache's counters on the gateway's metrics registry, read from its stats at scrape
 * time (the request path pays nothing). One bounded label: the cache status.
 */
import type { Registry } from 'prom-client';
import { counterFrom, gaugeFrom } from '@tern/shared/telemetry/metrics';
import type { CacheStatus, RenderCacheStats } from './render-cache.js';

export function registerRenderCacheMetrics(registry: Registry, stats: RenderCacheStats): void {
  counterFrom(
    registry,
    { name: 'render_cache_requests_total', help: 'Page and payload requests by render-cache status.', labelNames: ['status'] as const },
    () => (Object.entries(stats.requests) as [CacheStatus, number][]).map(([status, count]) => [{ status }, count]),
  );
  counterFrom(registry, { name: 'render_cache_stores_total', help: 'Rendered answers stored in the render cache.' }, () => stats.stores);
  counterFrom(
    registry,
    { name: 'render_cache_refreshes_total', help: 'Stale entries refreshed behind the answer.' },
    () => stats.refreshes,
  );
  counterFrom(
    registry,
    { name: 'render_cache_refresh_failures_total', help: 'Refreshes that failed (the stale entry was kept).' },
    () => stats.refreshFailures,
  );
  gaugeFrom(registry, { name: 'render_cache_memory_bytes', help: 'Bytes of cached answers held in this gateway memory.' }, () =>
    stats.memoryBytes(),
  );
}

/**
 * The image service's metrics, read from the pipeline's own counters at scrape time (nothing on
 * the request path): result-cache hits and misses, 304s, transforms, and the transform queue's
 * depth and rejections.
 */
import type { Registry } from 'prom-client';
import { counterFrom, gaugeFrom } from '#lib/metrics.js';
import type { ImageMetrics } from './image-pipeline.js';
import type { JobQueue } from './job-queue.js';

export function registerImageMetrics(registry: Registry, pipeline: { metrics: ImageMetrics; queue: JobQueue }): void {
  const { metrics, queue } = pipeline;
  counterFrom(
    registry,
    {
      name: 'image_cache_requests_total',
      help: 'Image requests that looked in the result cache: hit (no transform) or miss (transformed, or joined a transform in flight).',
      labelNames: ['result'] as const,
    },
    () => [
      [{ result: 'hit' }, metrics.cacheHits],
      [{ result: 'miss' }, metrics.cacheMisses],
    ],
  );
  counterFrom(
    registry,
    { name: 'image_not_modified_total', help: 'Image requests answered 304 before any cache read or decode.' },
    () => metrics.notModified,
  );
  counterFrom(registry, { name: 'image_transforms_total', help: 'Transforms run (sharp).' }, () => metrics.transforms);
  gaugeFrom(
    registry,
    { name: 'image_queue_depth', help: 'Transforms running and waiting for a slot, now.', labelNames: ['state'] as const },
    () => [
      [{ state: 'running' }, queue.stats.running],
      [{ state: 'waiting' }, queue.stats.waiting],
    ],
  );
  counterFrom(
    registry,
    { name: 'image_queue_rejections_total', help: 'Transforms turned away with 503 because the queue was full.' },
    () => queue.stats.rejected,
  );
}

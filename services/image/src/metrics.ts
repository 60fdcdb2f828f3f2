/**
 * The image service's metrics, read from the pipeline's own counters at scrape time (nothing on
 * the request path): result-cache hits and misses, 304s, transforms, the transform queue's depth
 * and rejections, transforms given up because nobody waited, and what addresses were refused.
 */
import type { Registry } from 'prom-client';
import { counterFrom, gaugeFrom } from '@tern/shared/telemetry/metrics';
import type { ImageMetrics } from './image-pipeline.js';
import type { AddressBudget } from './address-budget.js';
import type { JobQueue } from './job-queue.js';

export function registerImageMetrics(
  registry: Registry,
  pipeline: { metrics: ImageMetrics; queue: JobQueue; budget: AddressBudget },
): void {
  const { metrics, queue, budget } = pipeline;
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
  counterFrom(
    registry,
    {
      name: 'image_transforms_abandoned_total',
      help: 'Transforms given up because nobody waited any more: dropped from the queue, or stopped between stages after it.',
      labelNames: ['stage'] as const,
    },
    () => [
      [{ stage: 'waiting' }, queue.stats.dropped],
      [{ stage: 'started' }, metrics.stopped],
    ],
  );
  counterFrom(
    registry,
    { name: 'image_address_refusals_total', help: 'New transforms refused with 429: the address was over its budget or at its cap.' },
    () => budget.stats.refused,
  );
  gaugeFrom(
    registry,
    { name: 'image_address_accounts', help: 'Client addresses with a budget account, now.' },
    () => budget.stats.addresses,
  );
}

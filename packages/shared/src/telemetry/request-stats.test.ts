/** The request figures kept outside prom-client must read exactly as prom-client's own metrics would. */
import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { HTTP_DURATION_BUCKETS, methodLabel, statusClass } from './metrics.js';
import { RequestStats, registerRequestMetrics } from './request-stats.js';

const requests: Array<[string, string, number, number]> = [];
// Durations on, just under and just over every bound, and past the last one.
for (const bound of HTTP_DURATION_BUCKETS)
  requests.push(['GET', 'page', 200, bound], ['GET', 'page', 304, bound * 0.999], ['HEAD', 'asset', 200, bound * 1.001]);
requests.push(
  ['GET', 'page', 500, 42],
  ['POST', 'api', 201, 0.003],
  ['BREW', 'page', 404, 0.2],
  ['PURGE', 'page', 404, 7],
  ['GET', 'payload', 404, 0],
);

async function exposition(record: (registry: Registry) => void): Promise<string> {
  const registry = new Registry();
  registry.setDefaultLabels({ service: 'unit' });
  record(registry);
  // Sorted: the same series in any order are the same metrics.
  return (await registry.metrics()).split('\n').sort().join('\n');
}

describe('RequestStats', () => {
  it('exposes the same text as a prom-client Counter and Histogram fed the same requests', async () => {
    const ours = await exposition((registry) => {
      const stats = new RequestStats(HTTP_DURATION_BUCKETS);
      registerRequestMetrics(registry, stats, { method: methodLabel, statusClass });
      for (const [method, route, status, seconds] of requests) stats.record(method, route, status, seconds);
    });
    const theirs = await exposition((registry) => {
      const counter = new Counter({
        name: 'http_server_requests_total',
        help: 'HTTP requests answered, by method, route kind and status code.',
        labelNames: ['method', 'route', 'status'],
        registers: [registry],
      });
      const histogram = new Histogram({
        name: 'http_server_request_duration_seconds',
        help: 'Time from the request to the end of the answer, by method, route kind and status class.',
        labelNames: ['method', 'route', 'status_class'],
        buckets: HTTP_DURATION_BUCKETS,
        registers: [registry],
      });
      for (const [method, route, status, seconds] of requests) {
        counter.inc({ method: methodLabel(method), route, status: String(status) });
        histogram.observe({ method: methodLabel(method), route, status_class: statusClass(status) }, seconds);
      }
    });
    expect(ours).toBe(theirs);
    expect(ours).toContain(
      'http_server_request_duration_seconds_bucket{le="+Inf",service="unit",method="other",route="page",status_class="4xx"} 2',
    );
  });

  it('reads the same through the JSON view, and starts again after a reset', async () => {
    const registry = new Registry();
    const stats = new RequestStats(HTTP_DURATION_BUCKETS);
    registerRequestMetrics(registry, stats, { method: methodLabel, statusClass });
    stats.record('GET', 'page', 200, 0.02);
    const json = await registry.getMetricsAsJSON();
    const histogram = json.find((metric) => metric.name === 'http_server_request_duration_seconds')!;
    expect(histogram.type).toBe('histogram');
    const values = histogram.values as Array<{ metricName?: string; labels: Record<string, string | number>; value: number }>;
    expect(values.find((v) => v.metricName?.endsWith('_count'))?.value).toBe(1);
    expect(values.find((v) => v.labels.le === 0.025)).toMatchObject({
      labels: { method: 'GET', route: 'page', status_class: '2xx' },
      value: 1,
    });
    stats.reset();
    expect(await registry.metrics()).not.toContain('route="page"');
  });
});

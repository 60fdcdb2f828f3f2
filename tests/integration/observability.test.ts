/**
 * Issue 14, metrics and traces through the running stack: `/metrics` on every service's metrics
 * port (PORT + 1000) with the names, the histogram, bounded labels and counts that follow traffic;
 * 404 for `/metrics` on the public gateway port; and spans of one request from gateway and renderer,
 * received by an in-process OTLP/HTTP collector, sharing one trace.
 */
import { createServer, type Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePrometheus, sampleSum, type Sample } from '../support/prometheus.js';
import { waitFor } from '../support/wait-for.js';
import { startStack, type ServiceName, type Stack } from '../support/stack.js';

interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  attributes: Record<string, unknown>;
}

interface OtlpAttribute {
  key: string;
  value: Record<string, unknown>;
}

interface OtlpBody {
  resourceSpans?: Array<{
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: Array<{
      spans?: Array<{ traceId: string; spanId: string; parentSpanId?: string; name: string; attributes?: OtlpAttribute[] }>;
    }>;
  }>;
}

const attributesOf = (list: OtlpAttribute[] = []): Record<string, unknown> =>
  Object.fromEntries(list.map((a) => [a.key, Object.values(a.value)[0]]));

/** An OTLP/HTTP receiver with JSON encoding, as @opentelemetry/exporter-trace-otlp-http sends. */
async function startCollector(): Promise<{ server: Server; url: string; spans: ReceivedSpan[] }> {
  const spans: ReceivedSpan[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.url !== '/v1/traces' || req.method !== 'POST') return res.writeHead(404).end();
      let raw = Buffer.concat(chunks);
      if (req.headers['content-encoding'] === 'gzip') raw = gunzipSync(raw);
      const body = JSON.parse(raw.toString('utf8')) as OtlpBody;
      for (const resource of body.resourceSpans ?? []) {
        const service = String(attributesOf(resource.resource?.attributes)['service.name']);
        for (const scope of resource.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) {
            spans.push({
              service,
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId ?? '',
              name: span.name,
              attributes: attributesOf(span.attributes),
            });
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { server, url: `http://127.0.0.1:${port}`, spans };
}

const SERVICES: ServiceName[] = ['gateway', 'renderer', 'image', 'icons'];
const ROUTE_KINDS = new Set(['page', 'payload', 'asset', 'build', 'image', 'icon', 'api', 'file', 'health']);

describe('metrics and traces', () => {
  let stack: Stack;
  let collector: Awaited<ReturnType<typeof startCollector>>;
  const metricsUrl = (name: ServiceName) => {
    const port = Number(new URL(stack.serviceUrl(name)).port) + 1000;
    return `http://127.0.0.1:${port}/metrics`;
  };
  const scrape = async (name: ServiceName): Promise<Sample[]> => {
    const response = await fetch(metricsUrl(name));
    expect(response.status, name).toBe(200);
    return parsePrometheus(await response.text());
  };
  const get = async (path: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${stack.url}${path}`, { headers: { accept: 'text/html', ...headers } });
    await response.arrayBuffer();
    return response;
  };

  beforeAll(async () => {
    collector = await startCollector();
    stack = await startStack({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_BSP_SCHEDULE_DELAY: '200' } });
  });
  afterAll(async () => {
    await stack?.stop();
    await new Promise((resolve) => collector?.server.close(resolve));
  });

  it('serves /metrics on every service metrics port, and never on the public gateway port', async () => {
    for (const name of SERVICES) {
      const response = await fetch(metricsUrl(name));
      expect(response.status, name).toBe(200);
      expect(response.headers.get('content-type'), name).toMatch(/^text\/plain; version=0\.0\.4/);
      const samples = parsePrometheus(await response.text());
      const names = new Set(samples.map((s) => s.name));
      for (const metric of [
        'process_resident_memory_bytes',
        'nodejs_heap_size_used_bytes',
        'nodejs_eventloop_lag_p99_seconds',
        'build_info',
        'http_server_requests_total',
        'http_server_request_duration_seconds_bucket',
      ]) {
        expect(names.has(metric), `${name}: ${metric}`).toBe(true);
      }
      expect(samples.find((s) => s.name === 'build_info')?.labels.service).toBe(name);
    }
    const publicPort = await fetch(`${stack.url}/metrics`, { headers: { accept: 'application/json' } });
    expect(publicPort.status).toBe(404);
    expect((await fetch(metricsUrl('gateway').replace('/metrics', '/'))).status).toBe(404);
  });

  it('counts requests and their durations at the gateway and the renderer, by route kind and status', async () => {
    const before = { gateway: await scrape('gateway'), renderer: await scrape('renderer') };
    // /login is never cached: each request reaches the renderer.
    for (let i = 0; i < 3; i++) expect((await get('/login')).status).toBe(200);
    const after = { gateway: await scrape('gateway'), renderer: await scrape('renderer') };
    const page200 = { method: 'GET', route: 'page', status: '200' };
    for (const name of ['gateway', 'renderer'] as const) {
      const moved =
        sampleSum(after[name], 'http_server_requests_total', page200) - sampleSum(before[name], 'http_server_requests_total', page200);
      expect(moved, name).toBe(3);
      const histogram = { method: 'GET', route: 'page', status_class: '2xx' };
      const counted =
        sampleSum(after[name], 'http_server_request_duration_seconds_count', histogram) -
        sampleSum(before[name], 'http_server_request_duration_seconds_count', histogram);
      expect(counted, name).toBe(3);
      // Cumulative buckets: +Inf holds every observation, and no bucket holds more than a wider one.
      const buckets = after[name].filter((s) => s.name === 'http_server_request_duration_seconds_bucket' && s.labels.route === 'page');
      const ordered = buckets.filter((s) => s.labels.status_class === '2xx' && s.labels.method === 'GET');
      expect(ordered.at(-1)?.labels.le).toBe('+Inf');
      expect(ordered.map((s) => s.value)).toEqual([...ordered.map((s) => s.value)].sort((a, b) => a - b));
    }
    expect(sampleSum(after.renderer, 'renderer_render_duration_seconds_count', { kind: 'page' })).toBeGreaterThanOrEqual(3);
    expect(sampleSum(after.renderer, 'renderer_payload_bytes_count', { kind: 'inline' })).toBeGreaterThanOrEqual(3);
    expect(
      sampleSum(after.gateway, 'gateway_upstream_duration_seconds_count', { upstream: 'renderer', status_class: '2xx' }),
    ).toBeGreaterThanOrEqual(
      sampleSum(before.gateway, 'gateway_upstream_duration_seconds_count', { upstream: 'renderer', status_class: '2xx' }) + 3,
    );
  });

  it('keeps labels bounded: distinct paths add no series, and no label carries a path', async () => {
    await get(`/recipes/not-here-${randomUUID()}`);
    await get(`/recipes/not-here-${randomUUID()}/_payload.json`, { accept: 'application/json' });
    const seriesOf = (samples: Sample[]) => samples.filter((s) => s.name === 'http_server_requests_total').length;
    const before = { gateway: seriesOf(await scrape('gateway')), renderer: seriesOf(await scrape('renderer')) };
    for (let i = 0; i < 10; i++) {
      await get(`/recipes/not-here-${randomUUID()}?q=${i}`);
      await get(`/recipes/not-here-${randomUUID()}/_payload.json`, { accept: 'application/json' });
    }
    for (const name of ['gateway', 'renderer'] as const) {
      const samples = await scrape(name);
      expect(seriesOf(samples), name).toBe(before[name]);
      for (const sample of samples) {
        for (const [label, value] of Object.entries(sample.labels)) {
          expect(value.includes('/'), `${sample.name}{${label}="${value}"}`).toBe(false);
        }
        if (sample.name.startsWith('http_server_')) expect(ROUTE_KINDS.has(sample.labels.route!), sample.labels.route).toBe(true);
      }
    }
  });

  it('says which build each process serves, and counts image and icon cache use and upstream latency by upstream', async () => {
    const page = await get('/');
    const buildId = page.headers.get('x-build-id');
    expect(buildId).toBeTruthy();
    for (const name of ['gateway', 'renderer'] as const) {
      expect(sampleSum(await scrape(name), 'build_info', { build_id: buildId! }), name).toBe(1);
    }

    const image = `/_ipx/w_96/images/categories/shell.jpg?v=${randomUUID()}`;
    const imageBefore = await scrape('image');
    for (let i = 0; i < 2; i++) expect((await get(image, { accept: 'image/webp' })).status).toBe(200);
    const imageAfter = await scrape('image');
    const lookups = (samples: Sample[]) => sampleSum(samples, 'image_cache_requests_total');
    expect(lookups(imageAfter) - lookups(imageBefore)).toBeGreaterThanOrEqual(1);
    expect(imageAfter.some((s) => s.name === 'image_queue_depth' && s.labels.state === 'waiting')).toBe(true);
    expect(imageAfter.some((s) => s.name === 'image_queue_rejections_total')).toBe(true);

    const iconsBefore = sampleSum(await scrape('icons'), 'icons_set_cache_requests_total');
    expect((await get('/api/_nuxt_icon/lucide.json?icons=sun', { accept: 'application/json' })).status).toBe(200);
    const icons = await scrape('icons');
    expect(sampleSum(icons, 'icons_set_cache_requests_total') - iconsBefore).toBe(1);
    expect(sampleSum(icons, 'icons_set_loads_total')).toBeGreaterThanOrEqual(1);

    const gateway = await scrape('gateway');
    for (const upstream of ['renderer', 'image', 'icons']) {
      expect(sampleSum(gateway, 'gateway_upstream_duration_seconds_count', { upstream }), upstream).toBeGreaterThan(0);
    }
  });

  it('exports spans of one request from the gateway and the renderer in one trace, and logs its id', async () => {
    const requestId = `trace-${randomUUID()}`;
    expect((await get('/login', { 'x-request-id': requestId })).status).toBe(200);
    const accessLine = (name: ServiceName) =>
      stack
        .logs(name)
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .find((line) => line.msg === 'request' && line.reqId === requestId);
    await waitFor(() => Boolean(accessLine('gateway') && accessLine('renderer')), 10_000);
    const traceId = String(accessLine('gateway')!.traceId);
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(accessLine('renderer')!.traceId).toBe(traceId);

    const ofTrace = () => collector.spans.filter((span) => span.traceId === traceId);
    await waitFor(() => new Set(ofTrace().map((span) => span.service)).size >= 2, 20_000, 100);
    const gateway = ofTrace().find((span) => span.service === 'gateway')!;
    const renderer = ofTrace().find((span) => span.service === 'renderer')!;
    expect(gateway.parentSpanId).toBe('');
    expect(renderer.parentSpanId).toBe(gateway.spanId);
    expect(gateway.name).toBe('GET page');
    expect(gateway.attributes['http.response.status_code']).toBe(200);
  });

  it('continues a trace the client started, and starts a new one for an invalid traceparent', async () => {
    const traceId = randomUUID().replace(/-/g, '');
    const parent = 'b7ad6b7169203331';
    await get('/login', { traceparent: `00-${traceId}-${parent}-01` });
    // Each service exports on its own schedule: wait for both spans.
    const has = (service: string) => collector.spans.some((span) => span.traceId === traceId && span.service === service);
    await waitFor(() => has('renderer') && has('gateway'), 20_000, 100);
    const gateway = collector.spans.find((span) => span.traceId === traceId && span.service === 'gateway')!;
    expect(gateway.parentSpanId).toBe(parent);

    const invalid = randomUUID().replace(/-/g, '').toUpperCase();
    const requestId = `bad-trace-${randomUUID()}`;
    await get('/login', { traceparent: `00-${invalid}-${parent}-01`, 'x-request-id': requestId });
    await waitFor(() => stack.logs('gateway').some((line) => line.includes(requestId)), 10_000);
    const line = JSON.parse(stack.logs('gateway').find((l) => l.includes(requestId))!) as { traceId: string };
    expect(line.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(line.traceId).not.toBe(invalid.toLowerCase());
  });
});

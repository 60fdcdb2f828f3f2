import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createService } from '../http/service.js';
import { methodLabel, resolveMetricsPort, routeKindOf, startMetricsServer, serverPort, statusClass } from './metrics.js';
import type { Server } from 'node:http';
import { parsePrometheus, sampleSum } from '../../../../tests/support/prometheus.js';

const quiet = pino({ level: 'silent' });

describe('route kinds, methods and status classes', () => {
  it('names what a path is for, never the path', () => {
    expect(routeKindOf('/')).toBe('page');
    expect(routeKindOf('/recipes/some-long-slug?x=1')).toBe('page');
    expect(routeKindOf('/recipes/x/_payload.json?abc')).toBe('payload');
    expect(routeKindOf('/_nuxt/entry.abc123.js')).toBe('asset');
    expect(routeKindOf('/_nuxt/builds/latest.json')).toBe('build');
    expect(routeKindOf('/static/app.js', '/static/')).toBe('asset');
    expect(routeKindOf('/_ipx/w_640/covers/a.jpg')).toBe('image');
    expect(routeKindOf('/api/_nuxt_icon/lucide.json?icons=x')).toBe('icon');
    expect(routeKindOf('/api/categories')).toBe('api');
    expect(routeKindOf('/favicon.ico')).toBe('file');
    expect(routeKindOf('/healthz')).toBe('health');
  });

  it('keeps methods and statuses to a bounded set', () => {
    expect(methodLabel('GET')).toBe('GET');
    expect(methodLabel('BREW')).toBe('other');
    expect([statusClass(200), statusClass(304), statusClass(503), statusClass(999)]).toEqual(['2xx', '3xx', '5xx', 'other']);
  });

  it('puts metrics on PORT + 1000 by default, off for a system-chosen port or METRICS_PORT=0', () => {
    expect(resolveMetricsPort(3000, undefined)).toBe(4000);
    expect(resolveMetricsPort(3000, 9100)).toBe(9100);
    expect(resolveMetricsPort(3000, 0)).toBe(0);
    expect(resolveMetricsPort(0, undefined)).toBe(0);
  });
});

describe('service metrics', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  it('counts requests by method, route kind and status, with a duration histogram, and serves them on their own listener', async () => {
    const app = createService({ name: 'unit', logger: quiet, production: true });
    app.get('/recipes/:slug', async () => 'ok');
    app.telemetry.metrics.setBuildId('build-1');
    for (const slug of ['a', 'b', 'c']) await app.inject(`/recipes/${slug}`);
    await app.inject('/nowhere/_payload.json');
    server = await startMetricsServer(app.telemetry.metrics, 0, '127.0.0.1');
    const base = `http://127.0.0.1:${serverPort(server)}`;
    const response = await fetch(`${base}/metrics`);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await response.text();
    const samples = parsePrometheus(text);
    const page = { service: 'unit', method: 'GET', route: 'page' };
    expect(sampleSum(samples, 'http_server_requests_total', { ...page, status: '200' })).toBe(3);
    expect(sampleSum(samples, 'http_server_requests_total', { route: 'payload', status: '404' })).toBe(1);
    expect(sampleSum(samples, 'http_server_request_duration_seconds_count', { ...page, status_class: '2xx' })).toBe(3);
    expect(sampleSum(samples, 'http_server_request_duration_seconds_bucket', { ...page, le: '+Inf' })).toBe(3);
    expect(samples.filter((s) => s.name === 'http_server_request_duration_seconds_bucket' && s.labels.route === 'page')).toHaveLength(15);
    expect(sampleSum(samples, 'build_info', { build_id: 'build-1', node_version: process.versions.node })).toBe(1);
    for (const name of ['nodejs_eventloop_lag_p99_seconds', 'process_resident_memory_bytes', 'nodejs_heap_size_used_bytes']) {
      expect(samples.some((s) => s.name === name && s.labels.service === 'unit')).toBe(true);
    }
    // No raw path in any label.
    expect(text).not.toContain('/recipes/');
    expect((await fetch(`${base}/other`)).status).toBe(404);
    await app.close();
  });

  it("gives every access line the trace id and passes a traceparent that continues the caller's trace", async () => {
    const lines: Array<Record<string, unknown>> = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) });
    const app = createService({ name: 'unit', logger, production: true });
    app.get('/echo', async (request) => ({ traceparent: request.headers.traceparent }));
    const trace = '4bf92f3577b34da6a3ce929d0e0e4736';
    const continued = (await app.inject({ url: '/echo', headers: { traceparent: `00-${trace}-00f067aa0ba902b7-01` } })).json<{
      traceparent: string;
    }>();
    expect(continued.traceparent).toMatch(new RegExp(`^00-${trace}-[0-9a-f]{16}-01$`));
    expect(continued.traceparent).not.toContain('00f067aa0ba902b7');
    const started = (await app.inject({ url: '/echo', headers: { traceparent: `ff-${trace}-00f067aa0ba902b7-01` } })).json<{
      traceparent: string;
    }>();
    expect(started.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-00$/);
    expect(started.traceparent).not.toContain(trace);
    const access = lines.filter((line) => line.msg === 'request');
    expect(access.map((line) => line.traceId)).toEqual([trace, started.traceparent.split('-')[1]]);
    await app.close();
  });
});

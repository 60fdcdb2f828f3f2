/**
 * The gateway's own metrics: latency to the upstream's response headers and transport errors, by
 * upstream. Read from undici's diagnostics channels, so the proxy, the render cache's fills and the
 * readiness probes are all counted without touching their code. Errors are grouped into the few
 * reasons of transport-errors.ts, the reading the proxy's answer comes from, so the label is bounded.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { FastifyInstance } from 'fastify';
import { Counter, Histogram } from 'prom-client';
import { HTTP_DURATION_BUCKETS, statusClass } from '@tern/shared/telemetry/metrics';
import { classifyTransportError } from './transport-errors.js';

export interface UpstreamOrigins {
  rendererUrl: string;
  imageUrl: string;
  iconsUrl: string;
  /** Renderers announced by their own addresses (renderer-choice.ts) count as 'renderer' too. */
  isRenderer?: (origin: string) => boolean;
}

interface UndiciRequest {
  origin?: string | URL;
}

export function registerGatewayMetrics(app: FastifyInstance, upstreams: UpstreamOrigins): void {
  const registry = app.telemetry.metrics.registry;
  const names = new Map<string, string>([
    [new URL(upstreams.rendererUrl).origin, 'renderer'],
    [new URL(upstreams.imageUrl).origin, 'image'],
    [new URL(upstreams.iconsUrl).origin, 'icons'],
  ]);
  const latency = new Histogram({
    name: 'gateway_upstream_duration_seconds',
    help: 'Time from the gateway sending a request upstream to the response headers, by upstream and status class.',
    labelNames: ['upstream', 'status_class'] as const,
    buckets: HTTP_DURATION_BUCKETS,
    registers: [registry],
  });
  const errors = new Counter({
    name: 'gateway_upstream_errors_total',
    help: 'Upstream requests that failed without an answer (timeout, refused, unreachable, reset, aborted, other), by upstream and reason.',
    labelNames: ['upstream', 'reason'] as const,
    registers: [registry],
  });
  const started = new WeakMap<object, number>();
  const upstreamOf = (request: UndiciRequest): string | undefined => {
    const origin = request.origin;
    if (origin === undefined) return undefined;
    const key = typeof origin === 'string' ? origin : origin.origin;
    return names.get(key) ?? (upstreams.isRenderer?.(key) ? 'renderer' : undefined);
  };

  const onCreate = (message: unknown): void => {
    const { request } = message as { request: UndiciRequest };
    if (upstreamOf(request)) started.set(request, performance.now());
  };
  const onHeaders = (message: unknown): void => {
    const { request, response } = message as { request: UndiciRequest; response: { statusCode: number } };
    const start = started.get(request);
    const upstream = upstreamOf(request);
    if (start === undefined || !upstream) return;
    started.delete(request);
    latency.observe({ upstream, status_class: statusClass(response.statusCode) }, (performance.now() - start) / 1000);
  };
  const onError = (message: unknown): void => {
    const { request, error } = message as { request: UndiciRequest; error: unknown };
    const upstream = upstreamOf(request);
    if (!upstream) return;
    started.delete(request);
    errors.inc({ upstream, reason: classifyTransportError(error).reason });
  };
  subscribe('undici:request:create', onCreate);
  subscribe('undici:request:headers', onHeaders);
  subscribe('undici:request:error', onError);
  app.addHook('onClose', async () => {
    unsubscribe('undici:request:create', onCreate);
    unsubscribe('undici:request:headers', onHeaders);
    unsubscribe('undici:request:error', onError);
  });
}

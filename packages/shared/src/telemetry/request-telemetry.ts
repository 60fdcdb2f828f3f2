/**
 * Per-request metrics and tracing for every service, registered by createService: one onRequest
 * hook (route kind, the trace: continued from the caller's `traceparent` or started, and the
 * `traceparent` upstreams will see) and one onResponse hook (the request count and duration, the
 * span's end). OTLP export is switched on by `enableOtlpExport`, from `listen` when configured.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createServiceMetrics, routeKindOf, type RouteKind, type ServiceMetrics } from './metrics.js';
import { idOnlyTracer, type RequestSpan, type RequestTracer } from './tracer.js';
import { formatTraceparent, parseTraceparent } from './traceparent.js';

export interface TelemetryOptions {
  service: string;
  /** Where assets are served, so they count as `asset`, not `page`. */
  assetsPrefix?: string;
}

export interface Telemetry {
  readonly service: string;
  readonly metrics: ServiceMetrics;
  /** Replaces the ids-only tracer (OTLP export); the old one is shut down with the app. */
  useTracer(tracer: RequestTracer): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** This service's metrics registry and tracer (lib/telemetry). */
    telemetry: Telemetry;
  }
  interface FastifyRequest {
    /** The request's span: its trace id is on the access line and in the `traceparent` sent upstream. */
    trace: RequestSpan | null;
    routeKind: RouteKind;
  }
}

let perRequest = true;

/**
 * For bench/observability.ts only, which measures what telemetry costs: services built after this
 * call in this process record no metrics and open no spans per request. Never called by a service.
 */
export function disableRequestTelemetryForBenchmark(): void {
  perRequest = false;
}

/** The telemetry's two per-request phases: a span and route kind at the start, metrics and the span's end at the finish. */
export interface TelemetryPhases {
  start(request: FastifyRequest): void;
  finish(request: FastifyRequest, reply: FastifyReply): void;
}

/**
 * Decorates `app` with its telemetry. Its per-request phases are added as hooks, or, with
 * `handOver`, given to the caller, which runs them in a list of its own (the gateway's
 * pipeline.ts); none at all under disableRequestTelemetryForBenchmark.
 */
export function registerTelemetry(
  app: FastifyInstance,
  options: TelemetryOptions,
  handOver?: (phases: TelemetryPhases) => void,
): Telemetry {
  const metrics = createServiceMetrics(options.service);
  let tracer = idOnlyTracer;
  const telemetry: Telemetry = {
    service: options.service,
    metrics,
    useTracer(next) {
      tracer = next;
    },
  };
  app.decorate('telemetry', telemetry);
  app.decorateRequest('trace', null);
  app.decorateRequest('routeKind', 'page');
  app.addHook('onClose', () => tracer.shutdown());
  if (!perRequest) return telemetry;
  const phases = requestPhases(metrics, () => tracer, options.assetsPrefix);
  if (handOver) {
    handOver(phases);
    return telemetry;
  }
  // Callback hooks, not async ones: they run on every request of every service.
  app.addHook('onRequest', (request, _reply, done) => {
    phases.start(request);
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    phases.finish(request, reply);
    done();
  });
  return telemetry;
}

function requestPhases(metrics: ServiceMetrics, tracerOf: () => RequestTracer, assetsPrefix: string | undefined): TelemetryPhases {
  return {
    start(request) {
      const kind = routeKindOf(request.url, assetsPrefix);
      request.routeKind = kind;
      const parent = parseTraceparent(request.headers.traceparent);
      const tracer = tracerOf();
      const span = tracer.recording
        ? tracer.start(`${request.method} ${kind}`, parent, {
            'http.request.method': request.method,
            'url.path': request.url.split('?', 1)[0]!,
            'route.kind': kind,
          })
        : tracer.start('', parent);
      request.trace = span;
      // Upstreams continue this trace with this service's span as their parent.
      request.headers.traceparent = formatTraceparent(span.traceId, span.spanId, span.sampled);
    },
    finish(request, reply) {
      metrics.observeRequest(request.method, request.routeKind, reply.statusCode, reply.elapsedTime / 1000);
      request.trace?.end(reply.statusCode);
    },
  };
}

export async function enableOtlpExport(app: FastifyInstance, endpoint: string): Promise<void> {
  const { createOtlpTracer } = await import('./otlp-tracer.js');
  app.telemetry.useTracer(createOtlpTracer({ service: app.telemetry.service, endpoint }));
}

/**
 * OpenTelemetry export over OTLP/HTTP (JSON), loaded only when OTEL_EXPORTER_OTLP_ENDPOINT is set:
 * without it this module and the SDK are never imported. The provider is not registered globally;
 * each service owns its own, so tests can run several in one process. The SDK still reads its
 * standard OTEL_EXPORTER_OTLP_HEADERS and OTEL_BSP_* variables itself.
 */
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_HTTP_RESPONSE_STATUS_CODE, ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { RequestTracer } from './tracer.js';

export interface OtlpTracerOptions {
  service: string;
  /** OTEL_EXPORTER_OTLP_ENDPOINT: the collector's base URL; traces go to `{endpoint}/v1/traces` as the spec says. */
  endpoint: string;
}

export function createOtlpTracer(options: OtlpTracerOptions): RequestTracer {
  const exporter = new OTLPTraceExporter({ url: `${options.endpoint.replace(/\/+$/, '')}/v1/traces` });
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: options.service }),
    // Batch size and delay: the SDK's own OTEL_BSP_* variables (default: every 5 s).
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  const tracer = provider.getTracer('platform');
  return {
    recording: true,
    start(name, parent, attributes) {
      const context = parent
        ? trace.setSpanContext(ROOT_CONTEXT, {
            traceId: parent.traceId,
            spanId: parent.parentId,
            traceFlags: parent.sampled ? TraceFlags.SAMPLED : TraceFlags.NONE,
            isRemote: true,
          })
        : ROOT_CONTEXT;
      const span = tracer.startSpan(name, { kind: SpanKind.SERVER, attributes }, context);
      const { traceId, spanId, traceFlags } = span.spanContext();
      return {
        traceId,
        spanId,
        sampled: (traceFlags & TraceFlags.SAMPLED) === TraceFlags.SAMPLED,
        end(status, more) {
          span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
          if (more) span.setAttributes(more);
          if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
          span.end();
        },
      };
    },
    shutdown: () => provider.shutdown(),
  };
}

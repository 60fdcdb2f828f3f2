/**
 * The span each service opens per request. Without an OTLP endpoint it is ids only: the trace id
 * for the access line and the `traceparent` passed upstream, no SDK loaded, nothing recorded.
 * With one, packages/shared/src/telemetry/otlp-tracer.ts records and exports real spans behind the same interface.
 */
import { newSpanId, newTraceId, type TraceParent } from './traceparent.js';

export type SpanAttributes = Record<string, string | number | boolean>;

export interface RequestSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly sampled: boolean;
  /** Ends the span with the answer's status and any attributes learned on the way (the upstream). */
  end(status: number, attributes?: SpanAttributes): void;
}

export interface RequestTracer {
  /** False: spans are ids only, so callers skip building names and attributes. */
  readonly recording: boolean;
  start(name: string, parent: TraceParent | null, attributes?: SpanAttributes): RequestSpan;
  /** Sends what is still buffered; called when the app closes. */
  shutdown(): Promise<void>;
}

const noEnd = (): void => undefined;

/** Continues the caller's trace (or starts one) with a fresh span id, and records nothing. */
export const idOnlyTracer: RequestTracer = {
  recording: false,
  start(_name, parent) {
    return { traceId: parent?.traceId ?? newTraceId(), spanId: newSpanId(), sampled: parent?.sampled ?? false, end: noEnd };
  },
  shutdown: () => Promise.resolve(),
};

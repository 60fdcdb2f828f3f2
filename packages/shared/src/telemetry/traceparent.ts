/**
 * W3C Trace Context `traceparent` (https://www.w3.org/TR/trace-context/), read by OpenTelemetry's
 * own W3CTraceContextPropagator: strict as the spec says a receiver must be, so a malformed or
 * hostile header starts a new trace instead of being passed on. Written here, from ids that are
 * valid by construction, and the random ids are made here (a pool): both run on every request,
 * render-cache hits included.
 */
import { randomFillSync } from 'node:crypto';
import { ROOT_CONTEXT, TraceFlags, defaultTextMapGetter, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';

export interface TraceParent {
  traceId: string;
  /** The caller's span: the parent of the span this service opens. */
  parentId: string;
  /** Bit 0: the caller sampled (recorded) this trace. */
  sampled: boolean;
}

const propagator = new W3CTraceContextPropagator();
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);

export function parseTraceparent(header: string | string[] | undefined): TraceParent | null {
  // Two traceparent headers are ambiguous: the spec says to treat that as none (the propagator
  // would take the first).
  if (header === undefined || Array.isArray(header)) return null;
  const context = propagator.extract(ROOT_CONTEXT, { traceparent: header }, defaultTextMapGetter);
  const parent = trace.getSpanContext(context);
  if (!parent) return null;
  return { traceId: parent.traceId, parentId: parent.spanId, sampled: (parent.traceFlags & TraceFlags.SAMPLED) === TraceFlags.SAMPLED };
}

/**
 * Version 00's header for ids that are valid by construction: made by newTraceId/newSpanId, or
 * read by parseTraceparent, which refuses any other. The propagator's inject would validate them
 * again on every request, cache hits included; the test holds this to its output.
 */
export function formatTraceparent(traceId: string, spanId: string, sampled: boolean): string {
  return `00-${traceId}-${spanId}-${sampled ? '01' : '00'}`;
}

// One random fill, turned into hex once, serves about 170 requests: a randomBytes call per id
// cost ~10 µs here, and a hex conversion per id was still the larger part of what tracing cost
// on a render-cache hit. Ids are slices of that string.
const pool = Buffer.allocUnsafe(4096);
let hexPool = '';
let used = 0;

function randomHex(bytes: number): string {
  const chars = bytes * 2;
  if (used + chars > hexPool.length) {
    hexPool = randomFillSync(pool).toString('hex');
    used = 0;
  }
  const hex = hexPool.slice(used, used + chars);
  used += chars;
  return hex;
}

/** Random ids as the spec asks (non-zero; 16 random bytes make zero practically impossible, but check). */
export function newTraceId(): string {
  const id = randomHex(16);
  return id === ZERO_TRACE ? newTraceId() : id;
}

export function newSpanId(): string {
  const id = randomHex(8);
  return id === ZERO_SPAN ? newSpanId() : id;
}

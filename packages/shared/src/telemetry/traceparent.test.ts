import { describe, expect, it } from 'vitest';
import { ROOT_CONTEXT, TraceFlags, defaultTextMapSetter, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { formatTraceparent, newSpanId, newTraceId, parseTraceparent } from './traceparent.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN = '00f067aa0ba902b7';

describe('traceparent (W3C Trace Context)', () => {
  it('reads a version 00 header and its sampled flag', () => {
    expect(parseTraceparent(`00-${TRACE}-${SPAN}-01`)).toEqual({ traceId: TRACE, parentId: SPAN, sampled: true });
    expect(parseTraceparent(`00-${TRACE}-${SPAN}-00`)).toEqual({ traceId: TRACE, parentId: SPAN, sampled: false });
    expect(parseTraceparent(`00-${TRACE}-${SPAN}-03`)?.sampled).toBe(true);
  });

  it('refuses uppercase hex, zero ids, version ff, wrong lengths and extra fields on version 00', () => {
    for (const bad of [
      `00-${TRACE.toUpperCase()}-${SPAN}-01`,
      `00-${'0'.repeat(32)}-${SPAN}-01`,
      `00-${TRACE}-${'0'.repeat(16)}-01`,
      `ff-${TRACE}-${SPAN}-01`,
      `00-${TRACE}-${SPAN}-01-extra`,
      `00-${TRACE.slice(1)}-${SPAN}-01`,
      `00-${TRACE}-${SPAN}-1`,
      `0g-${TRACE}-${SPAN}-01`,
      'garbage',
      '',
    ]) {
      expect(parseTraceparent(bad), bad).toBeNull();
    }
  });

  it('treats two headers as none, and reads a later version by its first four fields', () => {
    expect(parseTraceparent([`00-${TRACE}-${SPAN}-01`, `00-${TRACE}-${SPAN}-01`])).toBeNull();
    expect(parseTraceparent(undefined)).toBeNull();
    expect(parseTraceparent(`01-${TRACE}-${SPAN}-01-whatever`)).toEqual({ traceId: TRACE, parentId: SPAN, sampled: true });
  });

  it("writes the header exactly as OpenTelemetry's propagator does", () => {
    const propagator = new W3CTraceContextPropagator();
    for (const sampled of [true, false]) {
      const traceId = newTraceId();
      const spanId = newSpanId();
      const carrier: Record<string, string> = {};
      const span = { traceId, spanId, traceFlags: sampled ? TraceFlags.SAMPLED : TraceFlags.NONE };
      propagator.inject(trace.setSpanContext(ROOT_CONTEXT, span), carrier, defaultTextMapSetter);
      expect(formatTraceparent(traceId, spanId, sampled)).toBe(carrier.traceparent);
    }
  });

  it('formats what it parses and makes valid random ids', () => {
    const header = formatTraceparent(newTraceId(), newSpanId(), true);
    expect(header).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    expect(parseTraceparent(header)).not.toBeNull();
    expect(newTraceId()).not.toBe(newTraceId());
  });
});

/**
 * W3C Trace Context `traceparent` (https://www.w3.org/TR/trace-context/): parsed strictly, as the
 * spec says a receiver must, so a malformed or hostile header starts a new trace instead of being
 * passed on. Format: `{version:2}-{trace-id:32}-{parent-id:16}-{flags:2}`, lowercase hex.
 */
import { randomFillSync } from 'node:crypto';

export interface TraceParent {
  traceId: string;
  /** The caller's span: the parent of the span this service opens. */
  parentId: string;
  /** Bit 0: the caller sampled (recorded) this trace. */
  sampled: boolean;
}

const VERSION_00 = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
/** A later version may append fields after the flags, separated by `-`; the first four are read as version 00. */
const LATER_VERSION = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);

export function parseTraceparent(header: string | string[] | undefined): TraceParent | null {
  // Two traceparent headers are ambiguous: the spec says to treat that as none.
  if (header === undefined || Array.isArray(header)) return null;
  const value = header.trim();
  let traceId: string;
  let parentId: string;
  let flags: string;
  const v0 = VERSION_00.exec(value);
  if (v0) {
    [, traceId, parentId, flags] = v0 as unknown as [string, string, string, string];
  } else {
    const later = LATER_VERSION.exec(value);
    // Version ff is forbidden; version 00 must be exactly 55 characters (handled above).
    if (!later || later[1] === 'ff' || later[1] === '00') return null;
    [, , traceId, parentId, flags] = later as unknown as [string, string, string, string, string];
  }
  if (traceId === ZERO_TRACE || parentId === ZERO_SPAN) return null;
  return { traceId, parentId, sampled: (parseInt(flags, 16) & 1) === 1 };
}

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

/**
 * The one reading of a transport error (an upstream that refused, reset, timed out or cannot be
 * found), shared by the proxy's retry (proxy.ts), the answer (upstream-errors.ts) and the metrics
 * (metrics.ts), so the status a visitor gets and the reason an operator counts never disagree.
 * Wrapped errors are read through: `cause` chains (reply-from wraps undici's) and AggregateError's
 * `errors` (a connect tried on several addresses).
 */
import { GATEWAY_ERRORS } from './error-codes.js';

export type TransportReason = 'timeout' | 'refused' | 'unreachable' | 'reset' | 'aborted' | 'other';

const ANSWERS = {
  timeout: GATEWAY_ERRORS.GW_UPSTREAM_TIMEOUT,
  refused: GATEWAY_ERRORS.GW_UPSTREAM_REFUSED,
  unreachable: GATEWAY_ERRORS.GW_UPSTREAM_UNREACHABLE,
  reset: GATEWAY_ERRORS.GW_UPSTREAM_RESET,
  aborted: GATEWAY_ERRORS.GW_UPSTREAM_ABORTED,
  other: GATEWAY_ERRORS.GW_UPSTREAM_FAILED,
} as const;

export interface TransportError {
  reason: TransportReason;
  /** 504 for a timeout, 502 otherwise: the status of `code` in the gateway's catalogue. */
  status: number;
  code: (typeof ANSWERS)[TransportReason]['code'];
  /** The codes along the chain, outermost first: for the log and development answers. */
  codes: string[];
  /** Nothing reached the upstream (refused, no such host, connect timeout): its process or address is gone. */
  unsent: boolean;
  /** The connection failed or broke before any answer: a GET or HEAD may go to another renderer. */
  retryable: boolean;
}

const REASON_OF: Readonly<Record<string, TransportReason>> = {
  ECONNREFUSED: 'refused',
  EHOSTUNREACH: 'unreachable',
  EHOSTDOWN: 'unreachable',
  ENETUNREACH: 'unreachable',
  ENOTFOUND: 'unreachable',
  EAI_AGAIN: 'unreachable',
  ECONNRESET: 'reset',
  EPIPE: 'reset',
  UND_ERR_SOCKET: 'reset',
  UND_ERR_ABORTED: 'aborted',
  ABORT_ERR: 'aborted',
};

/** undici's `UND_ERR_*_TIMEOUT`, reply-from's `FST_REPLY_FROM_*TIMEOUT`, and the OS's ETIMEDOUT. */
const isTimeoutCode = (code: string) => code === 'ETIMEDOUT' || code.includes('TIMEOUT');
const isUnsent = (code: string) => code === 'UND_ERR_CONNECT_TIMEOUT' || REASON_OF[code] === 'refused' || REASON_OF[code] === 'unreachable';

interface Link {
  code?: unknown;
  name?: unknown;
  cause?: unknown;
  errors?: unknown;
}

/** The error and what it wraps, breadth first, at most eight (a cause may point back at itself). */
function chainOf(error: unknown): Link[] {
  const chain: Link[] = [];
  const queue: unknown[] = [error];
  while (queue.length > 0 && chain.length < 8) {
    const link = queue.shift();
    if (!link || typeof link !== 'object') continue;
    const e = link as Link;
    chain.push(e);
    queue.push(e.cause, ...(Array.isArray(e.errors) ? (e.errors as unknown[]) : []));
  }
  return chain;
}

/** A timeout anywhere wins (a wrapped ETIMEDOUT is still a timeout); else the outermost code we know. */
function reasonOf(codes: string[], names: string[]): TransportReason {
  if (codes.some(isTimeoutCode) || names.includes('TimeoutError')) return 'timeout';
  const known = codes.map((code) => REASON_OF[code]).find((reason) => reason !== undefined);
  if (known) return known;
  return names.includes('AbortError') ? 'aborted' : 'other';
}

/** Any thrown value as one classification: reason, status and code, and what the proxy may do next. */
export function classifyTransportError(error: unknown): TransportError {
  const chain = chainOf(error);
  const codes = chain.flatMap((e) => (typeof e.code === 'string' ? [e.code] : []));
  const names = chain.flatMap((e) => (typeof e.name === 'string' ? [e.name] : []));
  const reason = reasonOf(codes, names);
  const answer = ANSWERS[reason];
  const unsent = codes.some(isUnsent);
  const retryable = unsent || codes.some((code) => REASON_OF[code] === 'reset');
  return { reason, status: answer.statusCode, code: answer.code, codes, unsent, retryable };
}

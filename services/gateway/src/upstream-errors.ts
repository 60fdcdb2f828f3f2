/**
 * What the gateway answers when an upstream fails: 504 when it was too slow, 502 for anything
 * else (refused, reset, unknown host). Never the proxy library's default 500.
 */
import type { FastifyReply } from 'fastify';
import { createError, type HttpError } from '../../../lib/errors.js';
import { LIB_ERRORS } from '../../../lib/error-codes.js';
import { clientBrokeRequest } from '../../../lib/request-guards.js';
import { sendError } from '../../../lib/service.js';
import { GATEWAY_ERRORS } from './error-codes.js';

const TIMEOUT_CODES = new Set([
  'FST_REPLY_FROM_GATEWAY_TIMEOUT',
  'FST_REPLY_FROM_TIMEOUT',
  'FST_REPLY_FROM_HTTP_REQUEST_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'ETIMEDOUT',
]);

function codesOf(error: unknown): string[] {
  const codes: string[] = [];
  for (let e = error as { code?: unknown; cause?: unknown } | undefined; e && codes.length < 5; e = e.cause as typeof e) {
    if (typeof e.code === 'string') codes.push(e.code);
  }
  return codes;
}

/** In production the answer names neither the upstream nor the error code: the log line does. */
export function upstreamError(upstream: string, error: unknown, production = false): HttpError {
  const codes = codesOf(error);
  const make = codes.some((code) => TIMEOUT_CODES.has(code)) ? GATEWAY_ERRORS.GW_UPSTREAM_TIMEOUT : GATEWAY_ERRORS.GW_UPSTREAM_FAILED;
  if (production) return createError(make());
  return createError({ ...make(upstream), data: { upstream, reason: codes.at(-1) ?? 'unknown' } });
}

/** The proxy's onError: logs the cause once and answers in the one error shape. */
export function onUpstreamError(upstream: string) {
  return function replyWithUpstreamError(reply: FastifyReply, error: Error): void {
    const request = reply.request;
    if (clientBrokeRequest(request.raw, reply.raw)) {
      // The client's body broke (aborted, or more bytes than it announced): the upstream was fine.
      request.log.info({ upstream, codes: codesOf(error) }, 'client broke its request');
      // The same condition lib/service.ts answers, so the same shared code.
      if (!reply.sent) sendError(request, reply, createError(LIB_ERRORS.LIB_REQUEST_INCOMPLETE()));
      return;
    }
    const http = upstreamError(upstream, error, request.server.production);
    request.log.warn({ upstream, codes: codesOf(error), statusCode: http.statusCode }, 'upstream failed');
    if (reply.sent) return;
    sendError(request, reply, http);
  };
}

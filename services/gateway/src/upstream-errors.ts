/**
 * What the gateway answers when an upstream fails: 504 when it was too slow, 502 for anything
 * else (refused, reset, unknown host), as transport-errors.ts classifies it. Never the proxy
 * library's default 500.
 */
import type { FastifyReply } from 'fastify';
import { createError, type HttpError } from '#lib/errors.js';
import { LIB_ERRORS } from '#lib/error-codes.js';
import { clientBrokeRequest } from '#lib/request-guards.js';
import { sendError } from '#lib/service.js';
import { GATEWAY_ERRORS } from './error-codes.js';
import { classifyTransportError } from './transport-errors.js';

/** In production the answer names neither the upstream nor the error code: the log line does. */
export function upstreamError(upstream: string, error: unknown, production = false): HttpError {
  const transport = classifyTransportError(error);
  const make = GATEWAY_ERRORS[transport.code];
  if (production) return createError(make());
  return createError({ ...make(upstream), data: { upstream, reason: transport.codes.at(-1) ?? 'unknown' } });
}

/** The proxy's onError: logs the cause once and answers in the one error shape. */
export function onUpstreamError(upstream: string) {
  return function replyWithUpstreamError(reply: FastifyReply, error: Error): void {
    const request = reply.request;
    const { codes, reason } = classifyTransportError(error);
    if (clientBrokeRequest(request.raw, reply.raw)) {
      // The client's body broke (aborted, or more bytes than it announced): the upstream was fine.
      request.log.info({ upstream, codes }, 'client broke its request');
      // The same condition lib/service.ts answers, so the same shared code.
      if (!reply.sent) sendError(request, reply, createError(LIB_ERRORS.LIB_REQUEST_INCOMPLETE()));
      return;
    }
    const http = upstreamError(upstream, error, request.server.production);
    request.log.warn({ upstream, codes, reason, statusCode: http.statusCode }, 'upstream failed');
    if (reply.sent) return;
    sendError(request, reply, http);
  };
}

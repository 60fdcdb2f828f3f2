/**
 * What the gateway answers when an upstream fails: 504 when it was too slow, 502 for anything
 * else (refused, reset, unknown host), as transport-errors.ts classifies it. Never the proxy
 * library's default 500.
 */
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { createError, type HttpError } from '@tern/shared/errors/errors';
import { LIB_ERRORS } from '@tern/shared/errors/error-codes';
import { clientBrokeRequest } from '@tern/shared/http/request-guards';
import { sendError } from '@tern/shared/http/service';
import { GATEWAY_ERRORS } from './error-codes.js';
import { answerStarting, type RendererStartup } from './renderer-startup.js';
import { classifyTransportError } from './transport-errors.js';

/** In production the answer names neither the upstream nor the error code: the log line does. */
export function upstreamError(upstream: string, error: unknown, production = false): HttpError {
  const transport = classifyTransportError(error);
  const make = GATEWAY_ERRORS[transport.code];
  if (production) return createError(make());
  return createError({ ...make(upstream), data: { upstream, reason: transport.codes.at(-1) ?? 'unknown' } });
}

/**
 * The log of a proxied request. The proxies' routes log at error only (proxy.ts), which silences
 * reply-from's own warn, with the error's whole stack, for every upstream failure: this line, on
 * the app's logger with the request id, is the one an operator reads.
 */
export function upstreamLog(request: FastifyRequest): FastifyBaseLogger {
  return request.server.log.child({ reqId: request.id });
}

/**
 * The proxy's onError: logs the cause once and answers in the one error shape. With `startup` (the
 * renderer's proxy), a refused connection before any renderer answered is the site starting.
 */
export function onUpstreamError(upstream: string, startup?: RendererStartup) {
  return function replyWithUpstreamError(reply: FastifyReply, error: Error): void {
    const request = reply.request;
    const { codes, reason, unsent } = classifyTransportError(error);
    if (startup && unsent && !startup.started() && !reply.sent) {
      answerStarting(reply);
      return;
    }
    if (clientBrokeRequest(request.raw, reply.raw)) {
      // The client's body broke (aborted, or more bytes than it announced): the upstream was fine.
      upstreamLog(request).info({ upstream, codes }, 'client broke its request');
      // The same condition packages/shared/src/http/service.ts answers, so the same shared code.
      if (!reply.sent) sendError(request, reply, createError(LIB_ERRORS.LIB_REQUEST_INCOMPLETE()));
      return;
    }
    const http = upstreamError(upstream, error, request.server.production);
    upstreamLog(request).warn({ upstream, codes, reason, statusCode: http.statusCode }, 'upstream failed');
    if (reply.sent) return;
    sendError(request, reply, http);
  };
}

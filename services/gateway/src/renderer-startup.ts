/**
 * Whether a renderer has answered this gateway yet. Until one has, a renderer that refuses the
 * connection is one still starting (the launcher and compose start the gateway first), not one
 * that failed: pages get 503 with Retry-After and a line saying the site is starting, the log an
 * info line and no stack (issue 31). After the first answer a refusal is an outage again (502).
 */
import type { FastifyReply } from 'fastify';
import { createError, renderStaticErrorPage, toErrorBody, wantsJson } from '@tern/shared/errors/errors';
import { errorCacheHeaders } from '@tern/shared/http/wants-json';
import { GATEWAY_ERRORS } from './error-codes.js';

/** A browser retries a reload soon; a starting renderer takes a second or two. */
export const STARTING_RETRY_AFTER_S = 2;

export interface RendererStartup {
  /** True once any renderer has answered (a proxied answer, a render for the cache). */
  started(): boolean;
  /** A renderer answered. */
  answered(): void;
}

export function createRendererStartup(): RendererStartup {
  let started = false;
  return {
    started: () => started,
    answered: () => {
      started = true;
    },
  };
}

/** The answer while the site starts: 503, Retry-After, the error shape (JSON or the static page). */
export function answerStarting(reply: FastifyReply): FastifyReply {
  const request = reply.request;
  const error = createError({ ...GATEWAY_ERRORS.GW_STARTING(), retryAfterS: STARTING_RETRY_AFTER_S });
  const body = toErrorBody(error, request.url);
  request.server.log.child({ reqId: request.id }).info({ upstream: 'renderer' }, 'renderer not started yet; answered 503');
  reply.code(503).headers({ ...error.headers, ...errorCacheHeaders(request.url, 503) });
  if (wantsJson(request)) return reply.type('application/json; charset=utf-8').send(body);
  return reply.type('text/html; charset=utf-8').send(renderStaticErrorPage(body, undefined, body.message));
}

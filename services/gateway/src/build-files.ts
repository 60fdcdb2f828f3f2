/**
 * `{prefix}builds/latest.json` and `{prefix}builds/meta/{id}.json`, served from the build the
 * gateway follows, so clients can tell they run an old build and still fetch their own meta.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createError, toErrorBody, type HttpErrorInit } from '../../../lib/errors.js';
import type { CurrentBuild } from './current-build.js';
import { GATEWAY_ERRORS } from './error-codes.js';

export const LATEST_CACHE_CONTROL = 'public, max-age=1, must-revalidate';
export const META_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/** Build files are JSON for every client, errors included (a browser fetches them with fetch()). */
function jsonError(request: FastifyRequest, reply: FastifyReply, init: HttpErrorInit): FastifyReply {
  const error = createError(init);
  const body = toErrorBody(error, request.url);
  return reply
    .code(body.statusCode)
    .headers(error.headers)
    .header('cache-control', 'no-store')
    .type('application/json; charset=utf-8')
    .send(body);
}

export function registerBuildFiles(app: FastifyInstance, build: CurrentBuild, assetsPrefix: string): void {
  const config = { upstream: 'gateway' };

  app.get(`${assetsPrefix}builds/latest.json`, { config }, async (request, reply) => {
    const info = build.info();
    if (!info) return jsonError(request, reply, GATEWAY_ERRORS.GW_BUILD_NOT_PUBLISHED());
    reply.header('cache-control', LATEST_CACHE_CONTROL);
    return { id: info.id, timestamp: info.timestamp };
  });

  app.get<{ Params: { file: string } }>(`${assetsPrefix}builds/meta/:file`, { config }, async (request, reply) => {
    const id = request.params.file.endsWith('.json') ? request.params.file.slice(0, -5) : '';
    const meta = await build.meta(id);
    if (meta === undefined) return jsonError(request, reply, GATEWAY_ERRORS.GW_BUILD_STORE_UNREACHABLE());
    if (meta === null) return jsonError(request, reply, GATEWAY_ERRORS.GW_BUILD_META_NOT_FOUND(id));
    reply.header('cache-control', META_CACHE_CONTROL);
    return meta;
  });
}

/**
 * Headers every answer under the icon prefix carries: CORS for any origin (icons are public and
 * the public Iconify API does the same), the preflight answer, and short or no caching of errors.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CLIENT_ERROR_CACHE_CONTROL, SERVER_ERROR_CACHE_CONTROL } from './http-cache.js';

export const ICON_PREFIX = '/api/_nuxt_icon';
const ALLOWED_METHODS = 'GET, HEAD, OPTIONS';
const HEADER_LIST = /^[A-Za-z0-9-]+(\s*,\s*[A-Za-z0-9-]+)*$/;
const PREFLIGHT_MAX_AGE_S = '86400';

function underPrefix(url: string): boolean {
  return url === ICON_PREFIX || url.startsWith(`${ICON_PREFIX}/`) || url.startsWith(`${ICON_PREFIX}?`);
}

export function registerIconHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    if (!underPrefix(request.url)) return;
    reply.header('access-control-allow-origin', '*');
    reply.header('cross-origin-resource-policy', 'cross-origin');
    reply.header('access-control-expose-headers', 'etag');
  });

  app.addHook('onSend', async (request, reply, payload) => {
    if (!underPrefix(request.url) || reply.statusCode < 400) return payload;
    const policy = reply.statusCode >= 500 ? SERVER_ERROR_CACHE_CONTROL : CLIENT_ERROR_CACHE_CONTROL;
    reply.header('cache-control', policy).removeHeader('etag');
    return payload;
  });

  app.options(ICON_PREFIX, answerPreflight);
  app.options(`${ICON_PREFIX}/*`, answerPreflight);
}

function answerPreflight(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const requested = request.headers['access-control-request-headers'];
  if (typeof requested === 'string' && HEADER_LIST.test(requested)) {
    reply.header('access-control-allow-headers', requested);
  }
  return reply
    .code(204)
    .header('access-control-allow-methods', ALLOWED_METHODS)
    .header('access-control-max-age', PREFLIGHT_MAX_AGE_S)
    .header('cache-control', `public, max-age=${PREFLIGHT_MAX_AGE_S}`)
    .send();
}

/**
 * Headers of the icon service's answers: CORS for any origin by @fastify/cors (icons are public and
 * the public Iconify API does the same), the preflight answer, and under the icon prefix a
 * cross-origin resource policy and short or no caching of errors.
 */
import fastifyCors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import { isUnderIcons } from '@tern/shared/url-space/icons';
import { CLIENT_ERROR_CACHE_CONTROL, SERVER_ERROR_CACHE_CONTROL } from './http-cache.js';

const HEADER_LIST = /^[A-Za-z0-9-]+(\s*,\s*[A-Za-z0-9-]+)*$/;
const PREFLIGHT_MAX_AGE_S = 86400;

export async function registerIconHeaders(app: FastifyInstance): Promise<void> {
  app.addHook('onRequest', async (request, reply) => {
    // The preflight echoes the headers asked for: a list that is not plain header names is
    // dropped here, before @fastify/cors reads it, so it is never written back.
    const requested = request.headers['access-control-request-headers'];
    if (requested !== undefined && !(typeof requested === 'string' && HEADER_LIST.test(requested))) {
      delete request.headers['access-control-request-headers'];
    }
    if (isUnderIcons(request.url)) reply.header('cross-origin-resource-policy', 'cross-origin');
  });

  await app.register(fastifyCors, {
    origin: '*',
    methods: ['GET', 'HEAD', 'OPTIONS'],
    exposedHeaders: 'etag',
    maxAge: PREFLIGHT_MAX_AGE_S,
    cacheControl: `public, max-age=${PREFLIGHT_MAX_AGE_S}`,
    // A bare OPTIONS (no Origin, no method asked) is answered like a preflight, as before, not 400.
    strictPreflight: false,
  });

  app.addHook('onSend', async (request, reply, payload) => {
    if (!isUnderIcons(request.url) || reply.statusCode < 400) return payload;
    const policy = reply.statusCode >= 500 ? SERVER_ERROR_CACHE_CONTROL : CLIENT_ERROR_CACHE_CONTROL;
    reply.header('cache-control', policy).removeHeader('etag');
    return payload;
  });
}

/** `GET /api/_nuxt_icon`: every collection this service can serve, with its name and icon count. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Catalogue } from './catalogue.js';
import { ICONS_BASE } from '@tern/shared/url-space/icons';
import { answeredNotModified, strongEtag } from './http-cache.js';

export function registerCollectionsRoute(app: FastifyInstance, catalogue: Catalogue): void {
  const collections = catalogue.list();
  // The list only changes with the package, so its body and ETag are made once.
  const body = JSON.stringify({ version: catalogue.version, count: collections.length, collections });
  const etag = strongEtag(catalogue.version, ['collections']);
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    if (answeredNotModified(request, reply, etag)) return reply;
    return reply.type('application/json; charset=utf-8').send(body);
  };
  app.get(ICONS_BASE, handler);
  app.get(`${ICONS_BASE}/`, handler);
}

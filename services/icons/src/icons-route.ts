/** `GET /api/_nuxt_icon/{collection}.json?icons=a,b,c` (and without `.json`): an icon subset. */
import type { FastifyInstance } from 'fastify';
import { createError } from '@tern/shared/errors/errors';
import { ICONS_ERRORS } from './error-codes.js';
import { ICONS_BASE } from '@tern/shared/url-space/icons';
import { answeredNotModified, strongEtag } from './http-cache.js';
import { checkCollection, loadIcons, type IconSets } from './icon-sets.js';
import { iconSubset } from './icon-subset.js';
import { MAX_ICONS_PER_REQUEST, parseIconNames } from './names.js';

interface IconsRequest {
  Params: { collection: string };
  Querystring: { icons?: string | string[] };
}

export function registerIconsRoute(app: FastifyInstance, sets: IconSets): void {
  app.get<IconsRequest>(`${ICONS_BASE}/:collection`, async (request, reply) => {
    const prefix = checkCollection(sets, request.params.collection.replace(/\.json$/, ''));
    const requested = parseIconNames(request.query.icons);
    if (requested.tooMany) {
      throw createError(ICONS_ERRORS.ICONS_TOO_MANY(MAX_ICONS_PER_REQUEST));
    }
    if (requested.valid.length === 0) {
      throw createError(ICONS_ERRORS.ICONS_NONE_ASKED());
    }
    const names = [...requested.valid, '|', ...requested.invalid];
    const etag = strongEtag(sets.catalogue.version, [prefix, names.join(',')]);
    if (answeredNotModified(request, reply, etag)) return reply;
    const set = await loadIcons(sets, prefix, requested.valid);
    return reply.type('application/json; charset=utf-8').send(iconSubset(set, requested));
  });
}

/** `GET /api/_nuxt_icon/{collection}/{name}.svg?width=&height=`: one icon as an SVG document. */
import type { FastifyInstance } from 'fastify';
import { createError } from '@tern/shared/errors/errors';
import { ICONS_ERRORS } from './error-codes.js';
import { ICONS_BASE } from '@tern/shared/url-space/icons';
import { answeredNotModified, strongEtag } from './http-cache.js';
import { checkCollection, loadIcons, type IconSets } from './icon-sets.js';
import { parseSvgSize, renderIconSvg } from './icon-svg.js';
import { isValidName } from './names.js';

interface SvgRequest {
  Params: { collection: string; file: string };
  Querystring: Record<string, unknown>;
}

/** The SVG may be opened as a page: no scripts, no fetches, only its own inline styles. */
const SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

export function registerSvgRoute(app: FastifyInstance, sets: IconSets): void {
  app.get<SvgRequest>(`${ICONS_BASE}/:collection/:file`, async (request, reply) => {
    const prefix = checkCollection(sets, request.params.collection);
    const file = request.params.file;
    if (!file.endsWith('.svg')) throw createError(ICONS_ERRORS.ICONS_NOT_SVG());
    const name = file.slice(0, -'.svg'.length);
    if (!isValidName(name)) {
      throw createError(ICONS_ERRORS.ICONS_INVALID_NAME());
    }
    const size = parseSvgSize(request.query);
    const etag = strongEtag(sets.catalogue.version, [prefix, name, size.width ?? '', size.height ?? '']);
    if (answeredNotModified(request, reply, etag)) return reply;
    const svg = renderIconSvg(await loadIcons(sets, prefix, [name]), name, size);
    if (svg === null) throw createError(ICONS_ERRORS.ICONS_UNKNOWN_ICON(prefix, name));
    return reply
      .type('image/svg+xml; charset=utf-8')
      .header('content-security-policy', SVG_CSP)
      .header('x-content-type-options', 'nosniff')
      .send(svg);
  });
}

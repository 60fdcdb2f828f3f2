/**
 * `{prefix}builds/latest.json` and `{prefix}builds/meta/{id}.json`, served from the build the
 * gateway follows, so clients can tell they run an old build and still fetch their own meta.
 */
import type { FastifyInstance } from 'fastify';
import { createError } from '../../../lib/errors.js';
import type { CurrentBuild } from './current-build.js';

export const LATEST_CACHE_CONTROL = 'public, max-age=1, must-revalidate';
export const META_CACHE_CONTROL = 'public, max-age=31536000, immutable';

export function registerBuildFiles(app: FastifyInstance, build: CurrentBuild, assetsPrefix: string): void {
  const config = { upstream: 'gateway' };

  app.get(`${assetsPrefix}builds/latest.json`, { config }, async (_request, reply) => {
    const info = build.info();
    if (!info) throw createError({ statusCode: 503, message: 'No build has been published yet' });
    reply.header('cache-control', LATEST_CACHE_CONTROL);
    return { id: info.id, timestamp: info.timestamp };
  });

  app.get<{ Params: { file: string } }>(`${assetsPrefix}builds/meta/:file`, { config }, async (request, reply) => {
    const id = request.params.file.endsWith('.json') ? request.params.file.slice(0, -5) : '';
    const meta = await build.meta(id);
    if (meta === undefined) throw createError({ statusCode: 503, message: 'The build store is unreachable' });
    if (meta === null) throw createError({ statusCode: 404, statusMessage: 'Build not found', message: `No build meta for ${JSON.stringify(id)}` });
    reply.header('cache-control', META_CACHE_CONTROL);
    return meta;
  });
}

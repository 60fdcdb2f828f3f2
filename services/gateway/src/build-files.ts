/**
 * `{prefix}builds/latest.json` and `{prefix}builds/meta/{id}.json`, served from the build the
 * gateway follows, so clients can tell they run an old build and still fetch their own meta.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createError, toErrorBody, type HttpErrorInit } from '@tern/shared/errors/errors';
import type { CurrentBuild } from './current-build.js';
import { GATEWAY_ERRORS } from './error-codes.js';
import { buildMetaDir, latestBuildPath } from '@tern/shared/url-space/build-files';
import type { Step } from './step.js';

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

function sendLatest(request: FastifyRequest, reply: FastifyReply, build: CurrentBuild): void {
  const info = build.info();
  if (!info) return void jsonError(request, reply, GATEWAY_ERRORS.GW_BUILD_NOT_PUBLISHED());
  reply.header('cache-control', LATEST_CACHE_CONTROL).send({ id: info.id, timestamp: info.timestamp });
}

async function sendMeta(request: FastifyRequest, reply: FastifyReply, build: CurrentBuild, file: string): Promise<void> {
  const id = file.endsWith('.json') ? file.slice(0, -5) : '';
  const meta = await build.meta(id);
  if (meta === undefined) return void jsonError(request, reply, GATEWAY_ERRORS.GW_BUILD_STORE_UNREACHABLE());
  if (meta === null) return void jsonError(request, reply, GATEWAY_ERRORS.GW_BUILD_META_NOT_FOUND(id));
  reply.header('cache-control', META_CACHE_CONTROL).send(meta);
}

/** The one path segment after `{prefix}builds/meta/`, decoded as a route parameter would be; null for any other path. */
function metaFileOf(path: string, metaPrefix: string): string | null {
  if (!path.startsWith(metaPrefix)) return null;
  const file = path.slice(metaPrefix.length);
  if (file.includes('/')) return null;
  try {
    return decodeURIComponent(file);
  } catch {
    return null; // Fastify's router has already answered such a URL with 400; never reached
  }
}

/** A GET or HEAD of a build file is answered here; anything else under `{prefix}builds/` goes on (to the renderer). */
export function buildFilesStep(build: CurrentBuild, assetsPrefix: string): Step {
  const latest = latestBuildPath(assetsPrefix);
  const metaPrefix = buildMetaDir(assetsPrefix);
  return (request, reply, state) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return false;
    const { path } = state;
    if (path === latest) {
      state.buildFile = true;
      sendLatest(request, reply, build);
      return true;
    }
    const file = metaFileOf(path, metaPrefix);
    if (file === null) return false;
    state.buildFile = true;
    return sendMeta(request, reply, build, file).then(() => true);
  };
}

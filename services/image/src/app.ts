/** Builds the image service's Fastify instance; tests use `app.inject`, main.ts listens. */
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { toErrorBody, toHttpError } from '@tern/shared/errors/errors';
import { createService } from '@tern/shared/http/service';
import { IMAGE_PREFIX } from '@tern/shared/url-space/images';
import { registerImageMetrics } from './metrics.js';
import type { ImageConfig } from './config.js';
import { createImagePipeline, type ImagePipeline } from './image-pipeline.js';
import { createImageSources } from './image-sources.js';
import { spendingKey, trustTheGateway } from './client-address.js';
import { systemResolver, type Resolver } from './pinned-lookup.js';
import { ResultCache } from './result-cache.js';
import { createTransformer } from './transform.js';

export interface ImageAppDeps {
  logger: FastifyBaseLogger;
  /** Test-only: how host names resolve (defaults to the system resolver). */
  resolver?: Resolver;
  /** Test-only: addresses a remote fetch may reach although they are not public. */
  allowAddresses?: readonly string[];
}

const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(', ') : value);

export interface ImageApp {
  app: FastifyInstance;
  /** Its counters and queue, for tests and benchmarks: handed back here, not hung on the app, so no other service's types see it. */
  images: ImagePipeline;
}

export async function buildImageApp(config: ImageConfig, deps: ImageAppDeps): Promise<ImageApp> {
  const cache = new ResultCache(
    config.IMAGE_CACHE_DIR,
    config.IMAGE_CACHE_INDEX_SIZE,
    config.IMAGE_CACHE_MAX_BYTES,
    config.IMAGE_MEMORY_CACHE_BYTES,
    (error, action) => deps.logger.warn({ err: error, action }, 'image cache failed'),
  );
  await cache.init().catch((error: unknown) => deps.logger.error({ err: error }, 'image cache folder unusable'));
  const sources = createImageSources(config, {
    resolve: deps.resolver ?? systemResolver,
    allowAddresses: new Set(deps.allowAddresses ?? []),
  });
  const transform = createTransformer({ maxInputPixels: config.IMAGE_MAX_INPUT_PIXELS, timeoutMs: config.IMAGE_JOB_TIMEOUT_MS });
  const pipeline = createImagePipeline({ config, sources, cache, transform });

  const app = createService({
    name: 'image',
    logger: deps.logger,
    production: config.NODE_ENV === 'production',
    checks: { cache: async () => ((await cache.writable()) ? 'ok' : 'down') },
    trustProxy: trustTheGateway,
  });
  registerImageMetrics(app.telemetry.metrics.registry, pipeline);
  app.addHook('onClose', async () => sources.close());

  app.get(`${IMAGE_PREFIX}*`, async (request, reply) => {
    try {
      const result = await pipeline.handle({
        url: request.url,
        accept: header(request.headers.accept),
        ifNoneMatch: header(request.headers['if-none-match']),
        ifModifiedSince: header(request.headers['if-modified-since']),
        client: spendingKey(request.ip),
        signal: gone(reply),
      });
      reply.code(result.status).headers(result.headers);
      return result.status === 304 ? reply.send() : reply.send(result.body);
    } catch (error) {
      return sendImageError(request, reply, error);
    }
  });
  return { app, images: pipeline };
}

/**
 * Aborts when the connection closes before the answer went out: the client left, or the gateway
 * gave up (its timeout closes its request to us). Queued work for it is then dropped.
 */
function gone(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}

/** Image errors are always the JSON error shape (an <img> never shows a page), and never cached. */
function sendImageError(request: FastifyRequest, reply: FastifyReply, error: unknown): FastifyReply {
  const http = toHttpError(error);
  if (http.statusCode >= 500) request.log.warn({ err: error, status: http.statusCode }, 'image request failed');
  else request.log.debug({ status: http.statusCode, reason: http.message }, 'image request refused');
  const body = toErrorBody(error, request.url, !request.server.production);
  return reply
    .code(body.statusCode)
    .headers(http.headers)
    .header('cache-control', 'no-store')
    .type('application/json; charset=utf-8')
    .send(body);
}

/**
 * The renderer's Fastify app: the client build under the assets prefix (immutable), the site's
 * server routes, then every other GET as a payload (`…/_payload.json`) or a streamed page.
 */
import fastifyStatic from '@fastify/static';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { canonicalRedirect } from '@tern/shared/http/canonical-path';
import { createError } from '@tern/shared/errors/errors';
import { LIB_ERRORS } from '@tern/shared/errors/error-codes';
import { allowedMethods } from '@tern/shared/http/allowed-methods';
import { createService, type ReadinessCheck } from '@tern/shared/http/service';
import { pagePathOfPayload } from '@tern/runtime/shared/payload';
import type { SiteServerInstance } from '@tern/site/define-site-server';
import { trustTheGateway } from '@tern/site/request-origin';
import { answerPage } from './page-response.js';
import { answerPayload } from './payload-response.js';
import { registerRenderMetrics } from './render-metrics.js';
import { answerShell } from './shell-response.js';
import { registerPersonalRoutes } from './personal-response.js';
import type { RenderContext } from './render-context.js';

export interface RendererAppDeps {
  /** The client build, served under the assets prefix; absent in development (Vite serves it). */
  clientDir?: string;
  /** Registers what must answer before the page routes (development: Vite's middleware). */
  beforeRoutes?: (app: FastifyInstance) => void;
  logger: FastifyBaseLogger;
  checks?: Record<string, ReadinessCheck>;
  /** The site's server part, started: its routes are registered here, and it is closed with the app. */
  site?: SiteServerInstance;
}

const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Source maps stay in the build output for error reporting but are never served: they are the whole source. */
const isSourceMap = (path: string): boolean => path.endsWith('.map');

/** These belong to the API and the assets: a miss there is a plain 404, never a page. */
function isApiOrAssetPath(path: string, assetsPrefix: string): boolean {
  return path === '/api' || path.startsWith('/api/') || path.startsWith(assetsPrefix);
}

export interface RendererApp {
  app: FastifyInstance;
}

/** `context` is the renderer's configuration as rendering needs it: the build, its entry, the site's services. */
export async function buildRendererApp(context: RenderContext, deps: RendererAppDeps): Promise<RendererApp> {
  const app = createService({
    name: 'renderer',
    logger: deps.logger,
    production: context.production,
    assetsPrefix: context.assetsPrefix,
    // The page route answers every GET but the API's and the assets' misses: a 404 for every method there.
    catchAllServes: (path) => !isApiOrAssetPath(path, context.assetsPrefix),
    ...(deps.checks ? { checks: deps.checks } : {}),
    trustProxy: trustTheGateway,
  });

  const metrics = registerRenderMetrics(app);
  deps.beforeRoutes?.(app);
  if (deps.clientDir) {
    await app.register(fastifyStatic, {
      root: deps.clientDir,
      prefix: context.assetsPrefix,
      decorateReply: false,
      index: false,
      dotfiles: 'deny',
      // `npm run build` wrote .br and .gz twins of every text asset (packages/cli/src/compress-assets.ts).
      preCompressed: true,
      allowedPath: (path) => !isSourceMap(path),
      cacheControl: false,
      setHeaders: (reply) => {
        reply.header('cache-control', IMMUTABLE);
      },
    });
  }
  if (deps.site?.routes) await app.register(deps.site.routes);
  const close = deps.site?.close;
  if (close) app.addHook('onClose', () => close());

  registerPersonalRoutes(app, context);
  app.get('/*', async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    if (isApiOrAssetPath(path, context.assetsPrefix)) {
      // GET /api/auth/logout: the path exists, for another method.
      const allowed = allowedMethods(app, path, (p) => !isApiOrAssetPath(p, context.assetsPrefix));
      // The conditions packages/shared/src/http/service.ts answers for every service, so the shared codes.
      if (allowed.length > 0)
        throw createError({ ...LIB_ERRORS.LIB_METHOD_NOT_ALLOWED(request.method, allowed), headers: { allow: allowed.join(', ') } });
      throw createError(LIB_ERRORS.LIB_ROUTE_NOT_FOUND(path));
    }
    // One spelling per page, the gateway's (packages/shared/src/http/canonical-path.ts): React Router would match
    // `/posts/hell%6F/` too, and each spelling would be a page of its own to caches and crawlers.
    const canonical = canonicalRedirect(request.url);
    if (canonical) return reply.code(308).header('location', canonical).send();
    const pagePath = pagePathOfPayload(path);
    if (pagePath !== null) return metrics.timed('payload', () => answerPayload(context, request, reply, pagePath));
    if (context.ssr && !context.ssr(path)) return metrics.timed('shell', () => answerShell(context, request, reply));
    return metrics.timed('page', () => answerPage(context, request, reply, metrics));
  });
  return { app };
}

/** Builds the gateway: its request path (pipeline.ts, where a reader starts), three proxies, readiness and metrics. */
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createAssetStore, createBuildStore, type BuildStore } from '@tern/shared/build-store';
import { createService, type ServicePhases } from '@tern/shared/http/service';
import { trustProxyOption } from '@tern/shared/http/trust-proxy';
import { clientFiles, localAssets, type ClientAssetStats } from './client-assets.js';
import type { GatewayConfig } from './config.js';
import { followCurrentBuild, type CurrentBuild } from './current-build.js';
import { firstBuildStep } from './first-build.js';
import { pageProxyStep } from './page-proxy.js';
import { createRendererPool, registerProxies, routeUpstream } from './proxy.js';
import { registerGatewayMetrics } from './metrics.js';
import { gatewayChecks } from './readiness.js';
import { createRendererChoice } from './renderer-choice.js';
import { createRendererStartup } from './renderer-startup.js';
import { registerRenderCacheMetrics } from './render-cache/cache-metrics.js';
import { createRenderCache } from './render-cache/index.js';
import { isPagePath } from './render-cache/cache-policy.js';
import type { RenderCacheStats } from './render-cache/render-cache.js';
import { registerPipeline } from './pipeline.js';
import { stateOf } from './request-state.js';
import { SECURITY_HEADERS } from './security-headers.js';

export interface GatewayApp {
  app: FastifyInstance;
  build: CurrentBuild;
  store: BuildStore;
  /** Null when RENDER_CACHE is off. */
  cache: RenderCacheStats | null;
  assets: ClientAssetStats;
}

/** Which way the request went, for the access line. */
function accessFields(request: FastifyRequest, reply: FastifyReply): Record<string, unknown> {
  const state = stateOf(request);
  if (state.routeRules?.redirect && reply.hasHeader('location')) return { upstream: 'redirect' };
  if (state.buildFile) return { upstream: 'gateway' };
  if (state.assetSource) return { upstream: 'gateway', asset: state.assetSource };
  const cache = state.cacheStatus ?? undefined;
  if (cache === 'HIT' || cache === 'STALE') return { upstream: 'cache', cache };
  const upstream = routeUpstream(request);
  return { upstream: upstream ?? 'gateway', ...(cache ? { cache } : {}) };
}

export interface GatewayAppDeps {
  logger: FastifyBaseLogger;
  /** Tests hand in a store; by default the one REDIS_URL or BUILD_STORE_DIR names. */
  store?: BuildStore;
  /** The render cache's clock; tests move it instead of sleeping. */
  now?: () => number;
}

/** Pages the gateway can answer without the renderer: in its render cache, or prerendered for the current build. */
async function hasOwnPages(cache: RenderCacheStats | null, build: CurrentBuild): Promise<boolean> {
  if (!cache) return false;
  if (cache.memoryBytes() > 0) return true;
  const id = build.info()?.id;
  return id ? ((await build.meta(id))?.prerendered.length ?? 0) > 0 : false;
}

export async function buildGatewayApp(config: GatewayConfig, { logger, store, now }: GatewayAppDeps): Promise<GatewayApp> {
  const buildStore =
    store ?? createBuildStore({ redisUrl: config.REDIS_URL, redisPrefix: config.REDIS_PREFIX, dir: config.BUILD_STORE_DIR, log: logger });
  const build = followCurrentBuild(buildStore, logger, config.BUILD_POLL_MS);
  const renderers = createRendererChoice(build, config.RENDERER_URL);
  const assetStore = createAssetStore({
    redisUrl: config.REDIS_URL,
    redisPrefix: config.REDIS_PREFIX,
    dir: config.BUILD_STORE_DIR,
    log: logger,
    keep: config.ASSET_BUILDS_KEPT,
    ttlMs: config.ASSET_TTL_MS,
  });
  const upstreams = { rendererUrl: config.RENDERER_URL, imageUrl: config.IMAGE_URL, iconsUrl: config.ICONS_URL };
  let servicePhases: ServicePhases | null = null;
  const app = createService({
    name: 'gateway',
    // Run in the pipeline's one list of phases (pipeline.ts), not as hooks of their own.
    handOverPhases: (phases) => (servicePhases = phases),
    logger,
    production: config.NODE_ENV === 'production',
    checks: gatewayChecks(
      { ...upstreams, timeoutMs: config.HEALTH_TIMEOUT_MS, renderer: renderers.current, hasOwnPages: () => hasOwnPages(cache, build) },
      buildStore,
      build,
    ),
    accessFields,
    assetsPrefix: config.ASSETS_PREFIX,
    edgeHeaders: SECURITY_HEADERS,
    trustProxy: trustProxyOption(config.TRUST_PROXY),
    timeouts: { headersMs: config.HEADERS_TIMEOUT_MS, requestMs: config.REQUEST_TIMEOUT_MS, keepAliveMs: config.KEEP_ALIVE_TIMEOUT_MS },
  });
  app.telemetry.metrics.setBuildId(() => build.info()?.id);
  registerGatewayMetrics(app, { ...upstreams, isRenderer: renderers.isRenderer });
  app.addHook('onClose', async () => {
    build.stop();
    await assetStore.close();
    if (!store) await buildStore.close();
  });
  const files = clientFiles({
    assetsPrefix: config.ASSETS_PREFIX,
    local: await localAssets(config.CLIENT_DIR),
    store: assetStore,
    memoryBytes: config.ASSET_MEMORY_BYTES,
  });
  const rendererStartup = createRendererStartup();
  const renderCache = config.RENDER_CACHE ? createRenderCache(app, build, config, renderers, now, rendererStartup) : null;
  const cache = renderCache?.stats ?? null;
  if (cache) registerRenderCacheMetrics(app.telemetry.metrics.registry, cache);
  const rendererPool = createRendererPool(config.UPSTREAM_TIMEOUT_MS);
  app.addHook('onClose', () => rendererPool.destroy().catch(() => undefined));
  await registerPipeline(app, {
    build,
    assetsPrefix: config.ASSETS_PREFIX,
    isPage: (path) => isPagePath(path, config.ASSETS_PREFIX),
    clientFiles: files.step,
    renderCache,
    service: servicePhases!,
    firstBuild: firstBuildStep(build, { waitMs: config.FIRST_BUILD_WAIT_MS, log: logger }),
    pageProxy: pageProxyStep({
      dispatcher: rendererPool,
      choose: renderers.forUrl,
      refused: renderers.refused,
      startup: rendererStartup,
      timeoutMs: config.UPSTREAM_TIMEOUT_MS,
      assetsPrefix: config.ASSETS_PREFIX,
    }),
  });
  await registerProxies(app, {
    ...upstreams,
    timeoutMs: config.UPSTREAM_TIMEOUT_MS,
    assetsPrefix: config.ASSETS_PREFIX,
    rendererFor: renderers.forUrl,
    rendererRefused: renderers.refused,
    rendererStartup,
    rendererPool,
    bodyPace: {
      limitBytes: app.initialConfig.bodyLimit ?? 1024 * 1024,
      graceMs: config.BODY_GRACE_MS,
      minBytesPerSecond: config.BODY_MIN_BYTES_PER_S,
    },
  });
  await build.refresh();
  return { app, build, store: buildStore, cache, assets: files.stats };
}

/** The render cache wired from the gateway's config: Redis when REDIS_URL is set, files otherwise. */
import type { FastifyInstance } from 'fastify';
import { publicOriginOf, type GatewayConfig } from '../config.js';
import type { CurrentBuild } from '../current-build.js';
import type { RendererChoice } from '../renderer-choice.js';
import type { RendererStartup } from '../renderer-startup.js';
import { createFileCacheStore } from './file-store.js';
import { createRedisCacheStore } from './redis-store.js';
import { createPrerendered } from './prerendered.js';
import { registerRenderCache, type RenderCache } from './render-cache.js';
import type { SharedCacheStore } from './shared-store.js';

export function createCacheStore(
  config: GatewayConfig,
  pollMs: number,
  currentBuildId: () => string | undefined,
): SharedCacheStore & { stop(): void } {
  if (config.REDIS_URL) {
    const store = createRedisCacheStore(config.REDIS_URL, config.REDIS_PREFIX, config.CACHE_STORE_TIMEOUT_MS, {
      maxBytes: config.CACHE_REDIS_BYTES,
    });
    return { ...store, stop: () => undefined };
  }
  const store = createFileCacheStore(config.CACHE_DIR, { pollMs, maxBytes: config.CACHE_FILE_BYTES });
  // Files have no TTL of their own: a new build's arrival removes the older builds' folders.
  let kept: string | undefined;
  const timer = setInterval(() => {
    const id = currentBuildId();
    if (id && id !== kept)
      void store.keepOnly(id).then(
        () => (kept = id),
        () => undefined,
      );
  }, pollMs);
  timer.unref();
  return { ...store, stop: () => clearInterval(timer) };
}

export function createRenderCache(
  app: FastifyInstance,
  build: CurrentBuild,
  config: GatewayConfig,
  renderers?: RendererChoice,
  now?: () => number,
  rendererStartup?: RendererStartup,
): RenderCache {
  const store = createCacheStore(config, config.BUILD_POLL_MS, () => build.info()?.id);
  app.addHook('onClose', async () => {
    store.stop();
    await store.close();
  });
  return registerRenderCache(app, build, {
    rendererUrl: config.RENDERER_URL,
    ...(renderers ? { currentRenderer: renderers.current, servesBuild: renderers.serves } : {}),
    timeoutMs: config.UPSTREAM_TIMEOUT_MS,
    assetsPrefix: config.ASSETS_PREFIX,
    store,
    memoryBytes: config.CACHE_MEMORY_BYTES,
    publicOrigin: publicOriginOf(config),
    ...(now ? { now } : {}),
    lockWaitMs: config.CACHE_LOCK_WAIT_MS,
    personalBudgetMs: config.PERSONAL_PARTS_BUDGET_MS,
    personalTtlMs: config.PERSONAL_PARTS_TTL_MS,
    personalMemoryBytes: config.PERSONAL_PARTS_MEMORY_BYTES,
    prerendered: createPrerendered(config.PRERENDER_DIR, build),
    ...(rendererStartup ? { rendererStartup } : {}),
  });
}

/** Builds the icon service's Fastify instance; tests drive it with `app.inject`. */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { createService } from '@tern/shared/http/service';
import { registerIconsMetrics } from './metrics.js';
import type { Catalogue } from './catalogue.js';
import type { IconsConfig } from './config.js';
import { registerCollectionsRoute } from './collections-route.js';
import { registerIconHeaders } from './icon-headers.js';
import { newIconReads, type IconReads } from './icon-set-file.js';
import { IconSetCache, type IconSetLoader } from './icon-set-cache.js';
import { DEFAULT_ICON_INDEX_DIR } from './icon-index.js';
import { iconSetLoader } from './icon-set-loader.js';
import type { IconSets } from './icon-sets.js';
import { registerIconsRoute } from './icons-route.js';
import { registerSvgRoute } from './svg-route.js';

export interface IconsAppDeps {
  logger: FastifyBaseLogger;
  catalogue: Catalogue;
  /** Test-only: a memory bound finer than ICONS_MEMORY_LIMIT_MB's megabytes. */
  memoryLimitBytes?: number;
  /** Where `npm run build:icons` wrote the per-set indexes; dist/icons by default. */
  indexDir?: string;
  /** Tests may count or slow down loads; the default reads @iconify/json's files (icon-set-loader.ts). */
  loader?: IconSetLoader;
}

export interface IconsApp {
  app: FastifyInstance;
  sets: IconSets;
  /** Bytes and files the default loader read. */
  reads: IconReads;
  /** Resolves when every preloaded set is in memory; rejects naming a set that failed. */
  preloaded: Promise<void>;
}

/** ICONS_PRELOAD's sets are loaded at start and kept; /readyz waits for them. */
export async function buildIconsApp(config: IconsConfig, deps: IconsAppDeps): Promise<IconsApp> {
  const { catalogue } = deps;
  const preload = config.ICONS_PRELOAD;
  const reads = newIconReads();
  const loader = deps.loader ?? iconSetLoader(catalogue, deps.indexDir ?? DEFAULT_ICON_INDEX_DIR, preload, reads);
  const cache = new IconSetCache(loader, deps.memoryLimitBytes ?? config.ICONS_MEMORY_LIMIT_MB * 1024 * 1024);
  const sets: IconSets = { catalogue, cache };

  const app = createService({
    name: 'icons',
    logger: deps.logger,
    production: config.NODE_ENV === 'production',
    checks: { preload: () => (preload.every((prefix) => cache.has(prefix)) ? 'ok' : 'down') },
  });
  await registerIconHeaders(app);
  registerIconsMetrics(app.telemetry.metrics.registry, cache, reads);
  registerCollectionsRoute(app, catalogue);
  registerIconsRoute(app, sets);
  registerSvgRoute(app, sets);

  const preloaded = preloadSets(cache, catalogue, preload);
  return { app, sets, reads, preloaded };
}

async function preloadSets(cache: IconSetCache, catalogue: Catalogue, prefixes: readonly string[]): Promise<void> {
  const unknown = prefixes.filter((prefix) => !catalogue.has(prefix));
  if (unknown.length > 0) throw new Error(`not in @iconify/json: ${unknown.join(', ')}`);
  // One file at a time: parsing is synchronous, so parallel loads would only raise peak memory.
  for (const prefix of prefixes) await cache.pin(prefix);
}

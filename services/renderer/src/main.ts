/**
 * The renderer process: config, logger, the build and the site's server part, app, listen, then
 * publish the build.
 * Nothing here waits on Redis: whatever state it is in (absent, refusing, hung), the renderer
 * listens and serves, `/readyz` says why the store is degraded, and the build is published as soon
 * as the store answers (docs/decisions/availability.md, "Start in any order"). Only its own
 * failures (a missing build, a bad config, a port taken) exit.
 */
import { createAssetStore, createBuildStore, keepPublished, type PublishOutcome } from '@tern/shared/build-store';
import { createLogger } from '@tern/shared/logging/logger';
import { isRedisOutage } from '@tern/shared/redis/outage';
import { watchRedisDurability } from '@tern/shared/redis/durability';
import { createRouteRulesMatcher } from '@tern/shared/route-rules/route-rules';
import { listen, listenOptionsOf } from '@tern/shared/http/service';
import { withSiteDefaults } from '@tern/shared/config/site-defaults';
import { buildRendererApp } from './app.js';
import { readBuildMeta } from './build-info.js';
import { createBuildPresence } from './build-presence.js';
import { readRendererConfig } from './config.js';
import { readViteManifest } from './manifest-links.js';
import { loadSsrEntry, startSiteServer } from '@tern/runtime/server/ssr-entry';
import { createWholePageRenderer } from './whole-page.js';

/** How often the build's place in the store is checked: published, still there, not superseded. */
const PUBLISH_CHECK_MS = 1000;

const config = readRendererConfig();
const logger = createLogger({ service: 'renderer', level: config.LOG_LEVEL, format: config.LOG_FORMAT, nodeEnv: config.NODE_ENV });

try {
  const [entry, manifest, meta] = await Promise.all([
    loadSsrEntry(config.SSR_ENTRY),
    readViteManifest(config.CLIENT_DIR),
    readBuildMeta(config.BUILD_META_FILE),
  ]);
  const rules = createRouteRulesMatcher(meta.matcher);
  const storeConfig = { redisUrl: config.REDIS_URL, redisPrefix: config.REDIS_PREFIX, dir: config.BUILD_STORE_DIR, log: logger };
  const store = createBuildStore(storeConfig);
  const assets = createAssetStore({ ...storeConfig, keep: config.ASSET_BUILDS_KEPT, ttlMs: config.ASSET_TTL_MS });
  const presence = createBuildPresence({
    buildId: meta.id,
    clientDir: config.CLIENT_DIR,
    assets,
    store,
    advertiseUrl: config.RENDERER_ADVERTISE_URL,
    intervalMs: config.ANNOUNCE_INTERVAL_MS,
    assetTtlMs: config.ASSET_TTL_MS,
    log: logger,
  });
  // The files before the build becomes current: a tab on the new build may ask any gateway for them.
  // A store that is away is reported once by its connection (with Redis's reason), not here again.
  await presence
    .publishAssets()
    .catch((error: unknown) => logger.warn({ err: isRedisOutage(error) ? undefined : error }, 'client files not published yet; retrying'));
  const site = await startSiteServer(entry, { logger, env: withSiteDefaults(process.env), dev: false });
  // One line saying whether this Redis keeps what the site stores in it (persistence, eviction policy).
  const stopDurabilityCheck = config.REDIS_URL ? watchRedisDurability(config.REDIS_URL, logger) : () => undefined;
  const context = {
    entry,
    manifest,
    services: site?.services,
    personal: site?.personal,
    build: { id: meta.id, timestamp: meta.timestamp },
    sessionCookie: meta.sessionCookie,
    assetsPrefix: config.ASSETS_PREFIX,
    publicOrigin: config.PUBLIC_ORIGIN,
    streamTimeoutMs: config.SSR_STREAM_TIMEOUT_MS,
    wholePages: createWholePageRenderer(),
    buildCheckIntervalMs: config.BUILD_CHECK_INTERVAL_MS,
    production: config.NODE_ENV === 'production',
    ssr: (path: string) => rules.match(path).ssr !== false,
  };
  let published: 'pending' | PublishOutcome = 'pending';
  const { app } = await buildRendererApp(context, {
    clientDir: config.CLIENT_DIR,
    logger,
    checks: {
      // Pages render without the store: degraded, never down, and with Redis's own reason.
      buildStore: async () => {
        if (!(await store.ping())) return { state: 'degraded', reason: store.unavailableReason() ?? 'the build store does not answer' };
        if (!(await store.current())) return { state: 'degraded', reason: 'the build store holds no current build yet' };
        return published === 'superseded' ? { state: 'ok', reason: `build ${meta.id} is superseded: serving its own tabs only` } : 'ok';
      },
      ...site?.checks,
    },
    ...(site ? { site } : {}),
  });
  app.telemetry.metrics.setBuildId(meta.id);
  let stopKeeping = () => undefined as void;
  app.addHook('onClose', async () => {
    stopKeeping();
    stopDurabilityCheck();
    presence.stop();
    await Promise.all([store.close(), assets.close()]);
  });
  await listen(app, {
    ...listenOptionsOf(config),
    // Out of the gateways' choice first, then serve what they still send until they have noticed.
    beforeClose: async () => {
      if (!config.RENDERER_ADVERTISE_URL) return;
      await presence.withdraw();
      await new Promise((resolve) => setTimeout(resolve, config.DRAIN_DELAY_MS));
    },
  });
  // Announced before the build is published: a gateway that sees the new build sees its renderer.
  await presence.start();
  // Published now, or as soon as the store answers; again if the store loses it (Redis restarted
  // empty); never over a build published after this one (no rollback by restart).
  stopKeeping = keepPublished(store, meta, {
    intervalMs: PUBLISH_CHECK_MS,
    onPublished(outcome) {
      published = outcome;
      if (outcome === 'current') logger.info({ buildId: meta.id, store: store.kind }, 'build published');
      else
        logger.warn(
          { buildId: meta.id, store: store.kind },
          `build ${meta.id} not made current: a later build was published (no rollback by restart; to roll back on purpose: npm run builds -- promote ${meta.id})`,
        );
    },
    onSuperseded(current) {
      published = 'superseded';
      logger.info({ buildId: meta.id, current }, 'a later build is current; this renderer serves its own tabs');
    },
    onRepublished: () => logger.warn({ buildId: meta.id }, 'the build store had lost the build; published it again'),
    onError: () => undefined, // the store's reason is logged by its connection and shown in /readyz
  });
  logger.info({ port: config.PORT, buildId: meta.id }, 'renderer ready');
} catch (error) {
  logger.fatal({ err: error }, 'renderer failed to start');
  process.exit(1);
}

/** The renderer process: config, logger, build and content, publish the build, app, listen. */
import { createAssetStore, createBuildStore, keepPublished } from '../../../lib/build-store/index.js';
import { createLogger } from '../../../lib/logger.js';
import { createRouteRulesMatcher } from '../../../lib/route-rules.js';
import { listen, listenOptionsOf } from '../../../lib/service.js';
import { loadContentRepository } from './content/repository.js';
import { createAccounts } from './server/accounts.js';
import { buildRendererApp } from './server/app.js';
import { publishBuild, readBuildMeta } from './server/build-info.js';
import { createBuildPresence } from './server/build-presence.js';
import { readRendererConfig } from './server/config.js';
import { readViteManifest } from './server/manifest-links.js';
import { loadSsrEntry } from './server/ssr-entry.js';

const config = readRendererConfig();
const logger = createLogger({ service: 'renderer', level: config.LOG_LEVEL, format: config.LOG_FORMAT, nodeEnv: config.NODE_ENV });

try {
  const [entry, manifest, meta, content] = await Promise.all([
    loadSsrEntry(config.SSR_ENTRY),
    readViteManifest(config.CLIENT_DIR),
    readBuildMeta(config.BUILD_META_FILE),
    loadContentRepository(config.CONTENT_FILE),
  ]);
  const rules = createRouteRulesMatcher(meta.matcher);
  const storeConfig = { redisUrl: config.REDIS_URL, redisPrefix: config.REDIS_PREFIX, dir: config.BUILD_STORE_DIR };
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
  await presence.publishAssets().catch((error: unknown) => logger.warn({ err: error }, 'client files not published; retrying'));
  const accounts = await createAccounts({ config, repository: content, logger });
  const context = {
    entry,
    manifest,
    services: { content, accounts },
    build: { id: meta.id, timestamp: meta.timestamp },
    assetsPrefix: config.ASSETS_PREFIX,
    publicOrigin: config.PUBLIC_ORIGIN,
    streamTimeoutMs: config.SSR_STREAM_TIMEOUT_MS,
    buildCheckIntervalMs: config.BUILD_CHECK_INTERVAL_MS,
    production: config.NODE_ENV === 'production',
    ssr: (path: string) => rules.match(path).ssr !== false,
  };
  const { app } = await buildRendererApp(context, {
    clientDir: config.CLIENT_DIR,
    logger,
    checks: {
      buildStore: async () => ((await store.ping()) && (await store.current()) ? 'ok' : 'degraded'),
      accounts: async () => ((await accounts.ping()) ? 'ok' : 'degraded'),
    },
    accounts,
  });
  app.telemetry.metrics.setBuildId(meta.id);
  let stopKeeping = () => undefined as void;
  app.addHook('onClose', async () => {
    stopKeeping();
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
  const published = await publishBuild(store, meta);
  logger.info({ buildId: meta.id, store: store.kind, published }, 'build published');
  // A store that lost the build (Redis restarted empty) gets it again within seconds.
  stopKeeping = keepPublished(store, meta, {
    intervalMs: 2000,
    onRepublished: () => logger.warn({ buildId: meta.id }, 'the build store had lost the build; published it again'),
    onError: () => undefined, // the store being away shows in /readyz
  });
  logger.info({ port: config.PORT, buildId: meta.id }, 'renderer ready');
} catch (error) {
  logger.fatal({ err: error }, 'renderer failed to start');
  process.exit(1);
}

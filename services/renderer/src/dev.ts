/**
 * The renderer in development (`npm run dev`): the same server as main.ts, with the app served
 * by Vite (HMR, Fast Refresh, error overlay), the SSR bundle loaded through Vite on each request
 * (so an edit shows on the next full load too), the site's data rebuilt when its sources change
 * (the site's server part says which), and the route rules read from the site's definition (the
 * launcher restarts this process when it changes).
 */
import { createBuildStore, keepPublished } from '@tern/shared/build-store';
import { createLogger } from '@tern/shared/logging/logger';
import { createRouteRulesMatcher } from '@tern/shared/route-rules/route-rules';
import { listen } from '@tern/shared/http/service';
import { withSiteDefaults } from '@tern/shared/config/site-defaults';
import { buildRendererApp } from './app.js';
import { readRendererConfig } from './config.js';
import { devBuildMeta } from './dev-build-meta.js';
import { restartMarker, watchServerPart, writeDevSiteJson } from './dev-restart.js';
import { devAssets, loadDevSite, mountVite, startVite } from './dev-vite.js';
import type { RenderContext } from './render-context.js';
import { checkSsrEntry, type SsrEntry } from '@tern/runtime/server/ssr-entry';
import { SITE_DATA_CHANGED_EVENT } from '@tern/runtime/shared/dev-events';
/** Vite's HMR WebSocket listens beside the renderer (the browser connects to it directly). */
const HMR_PORT_OFFSET = 2000;

const config = readRendererConfig();
const logger = createLogger({ service: 'renderer', level: config.LOG_LEVEL, format: config.LOG_FORMAT, nodeEnv: config.NODE_ENV });

try {
  const hmrPort = config.PORT + HMR_PORT_OFFSET;
  const vite = await startVite(hmrPort);
  const loadEntry = async () => checkSsrEntry(await vite.ssrLoadModule('/src/entry-server.tsx'), 'src/entry-server.tsx');
  const restart = await restartMarker(process.env.DEV_RESTART_FILE);
  const site = await loadDevSite(vite);
  // Every service of `npm run dev` reads this site's defaults, not those of the last build.
  if (process.env.SITE_JSON_FILE && writeDevSiteJson(process.env.SITE_JSON_FILE, site.definition)) {
    logger.info({ file: process.env.SITE_JSON_FILE }, "the site's defaults changed: restarting to read them");
    restart();
  }
  // Started before the app loads, as the build runs the site's data step before the bundle: the
  // app may import what it writes (a stylesheet its data step generates). Once: its state (sessions…)
  // outlives edits; the entry below imports this same module instance.
  const siteServer = site.server
    ? await site.server.start({ logger, env: withSiteDefaults(process.env, site.definition.defaults ?? {}), dev: true })
    : null;
  // A broken page at start must not stop the dev server: the first request shows the error.
  let entry: SsrEntry | undefined = await loadEntry().catch((error: unknown) => {
    logger.error({ err: error }, 'the app does not load yet');
    return undefined;
  });
  const store = createBuildStore({
    redisUrl: config.REDIS_URL,
    redisPrefix: config.REDIS_PREFIX,
    dir: config.BUILD_STORE_DIR,
    log: logger,
  });
  const meta = devBuildMeta(site.definition, config.ASSETS_PREFIX);
  const rules = createRouteRulesMatcher(meta.matcher);
  // As the production renderer: published once the store answers, never waited on.
  const stopPublishing = keepPublished(store, meta, {
    intervalMs: 1000,
    onPublished: (outcome) => logger.info({ buildId: meta.id, store: store.kind, outcome }, 'development build published'),
    onRepublished: () => logger.warn({ buildId: meta.id }, 'the build store had lost the build; published it again'),
    onError: () => undefined,
  });
  const context: RenderContext = {
    get entry() {
      if (!entry) throw new Error('the app has not loaded yet (see the error above)');
      return entry;
    },
    manifest: {},
    assets: await devAssets(vite, config.ASSETS_PREFIX, hmrPort, site.stylesheetFile),
    services: siteServer?.services,
    personal: siteServer?.personal,
    build: { id: meta.id, timestamp: meta.timestamp },
    sessionCookie: meta.sessionCookie,
    assetsPrefix: config.ASSETS_PREFIX,
    publicOrigin: config.PUBLIC_ORIGIN,
    streamTimeoutMs: config.SSR_STREAM_TIMEOUT_MS,
    buildCheckIntervalMs: config.BUILD_CHECK_INTERVAL_MS,
    production: false,
    ssr: (path) => rules.match(path).ssr !== false,
  };
  const { app } = await buildRendererApp(context, {
    logger,
    ...(siteServer ? { site: siteServer } : {}),
    checks: { buildStore: async () => ((await store.ping()) ? 'ok' : 'degraded'), ...siteServer?.checks },
    beforeRoutes: (app) => mountVite(app, vite, config.ASSETS_PREFIX),
  });
  // Vite caches modules and drops what an edit touched, so this is cheap when nothing changed.
  app.addHook('preHandler', async (request) => {
    if (request.url.startsWith(config.ASSETS_PREFIX) || request.url.startsWith('/api/')) return;
    try {
      entry = await loadEntry();
    } catch (error) {
      vite.ssrFixStacktrace(error as Error);
      throw error;
    }
  });

  const siteDev = siteServer?.dev;
  if (siteDev) {
    vite.watcher.add(siteDev.watch);
    const rebuild = async (file: string) => {
      if (!siteDev.watch.some((dir) => file.startsWith(dir))) return;
      try {
        await siteDev.rebuild(file);
        logger.info({ file }, 'site data rebuilt');
        vite.ws.send({ type: 'custom', event: SITE_DATA_CHANGED_EVENT });
      } catch (error) {
        logger.error({ err: error, file }, 'site data build failed');
        vite.ws.send({ type: 'error', err: { message: (error as Error).message, stack: '' } });
      }
    };
    for (const event of ['add', 'change', 'unlink'] as const) vite.watcher.on(event, (file: string) => void rebuild(file));
  }

  // Routes are registered once, before listening: a change to the server part needs a new process.
  if (site.serverFile) {
    watchServerPart(vite, site.serverFile, (file) => {
      logger.info({ file }, "the site's server part changed: restarting the renderer");
      restart();
    });
  }

  app.addHook('onClose', async () => {
    stopPublishing();
    await vite.close();
    await store.close();
  });
  await listen(app, { port: config.PORT, host: config.HOST, shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS });
  logger.info({ port: config.PORT, hmrPort }, 'renderer ready (development, Vite)');
} catch (error) {
  logger.fatal({ err: error }, 'renderer failed to start');
  process.exit(1);
}

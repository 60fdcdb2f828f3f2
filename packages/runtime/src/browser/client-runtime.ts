/**
 * Starts the browser half of the framework runtime around the router: safe navigation, chunk
 * recovery, payload build ids and per-entry scroll positions at once; after hydration the scroll
 * position of a reloaded entry, the build-freshness checks, the manifest warm-up (1000 ms) and
 * link preloading, whose code (preload.ts, its queue) is imported then rather than with the page:
 * it has nothing to do before the page is interactive, and every page's first load is on a budget.
 */
import type { DataRouter as Router, RouteObject } from 'react-router';
import type { AppDefinition } from '../shared/app-definition.js';
import { appConfig } from '../shared/app-config.js';
import { scheduleManifestPrefetch } from './app-manifest.js';
import { reportBuildId, startBuildFreshness } from './build-freshness.js';
import { chunkPreloadsInFlight, installPreloadErrorListener } from './chunk-reload.js';
import { HYDRATED_ATTRIBUTE, HYDRATED_EVENT } from '../shared/hydration.js';
import { setNavigationRouter } from '../shared/navigate.js';
import { onPayloadBuildId } from './payload-fetch.js';
import { keepScrollPositions, restoreScrollAfterLoad } from './scroll-memory.js';

/**
 * Where a chunk failure should reload to: the pending navigation's target, else here (a lazy
 * component failed); nowhere when only link preloads were loading code.
 */
function reloadTarget(router: Router): string | null {
  const { navigation } = router.state;
  if (navigation.state === 'idle' && chunkPreloadsInFlight() > 0) return null;
  const location = navigation.state === 'idle' ? window.location : navigation.location;
  return `${location.pathname}${location.search}${location.hash}`;
}

function afterHydration(run: () => void): void {
  if (document.documentElement.hasAttribute(HYDRATED_ATTRIBUTE)) run();
  else window.addEventListener(HYDRATED_EVENT, run, { once: true });
}

export function startClientRuntime(router: Router, routes: RouteObject[], container: HTMLElement, app: AppDefinition): void {
  setNavigationRouter(router);
  installPreloadErrorListener(() => reloadTarget(router));
  onPayloadBuildId((buildId) => reportBuildId(buildId, 'payload'));
  keepScrollPositions(router);
  afterHydration(() => {
    restoreScrollAfterLoad(router.state.location.key);
    startBuildFreshness(appConfig());
    scheduleManifestPrefetch();
    // A failed import leaves links working, only not preloaded.
    void import('./preload.js').then(
      ({ createRoutePreloader, watchLinks }) => watchLinks(container, createRoutePreloader(routes, app.pageFileOf)),
      () => undefined,
    );
  });
}

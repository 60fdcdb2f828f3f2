/**
 * Every client navigation passes here (React Router's `dataStrategy`), in this order:
 * 1. a newer build is known: load the whole target page instead (query and hash kept; the offset
 *    of the page left is kept for Back/Forward, see scroll-memory.ts);
 * 2. a route rule redirects the target: follow it, with the gateway's matcher (external: leave);
 * 3. the route middleware (global, named, the page's own) in the browser;
 * 4. the loaders (payload fetches); a chunk that fails to load reloads the target once.
 * Errors from any step become the route's error, so the error page shows as on the server.
 */
import {
  redirect,
  type DataStrategyFunction,
  type DataStrategyFunctionArgs,
  type DataStrategyResult,
  type DataRouter as Router,
} from 'react-router';
import type { AppDefinition } from '../shared/app-definition.js';
import { getAppManifest, loadedManifest } from './app-manifest.js';
import { isBuildOutdated } from './build-freshness.js';
import { isChunkLoadError, recoverFromChunkError } from './chunk-reload.js';
import { loadWholePage } from './full-load.js';
import { resolveMiddleware, runMiddleware } from '../shared/middleware.js';
import { rememberScroll } from './scroll-memory.js';

type Results = Record<string, DataStrategyResult>;

/** The page is going away (a full load has started): render nothing new meanwhile. */
function leaving(): Promise<Results> {
  return new Promise<Results>(() => undefined);
}

function fullLoad(target: string, router: Router | null): Promise<Results> {
  // The page shown is still the one being left: keep its offset for a later Back/Forward to it.
  if (router?.state.initialized) rememberScroll(router.state.location.key);
  loadWholePage(target);
  return leaving();
}

function leaveSite(url: string): Promise<Results> {
  window.location.assign(url);
  return leaving();
}

/** The target with its hash: the request has none, the pending navigation's location has it. */
function targetOf(url: URL, router: Router | null): { target: string; hash: string; navigation: boolean } {
  if (!router?.state.initialized) {
    // The first load (a page chunk failed before hydration): the target is where we are.
    const { pathname, search, hash } = window.location;
    return { target: `${pathname}${search}${hash}`, hash, navigation: false };
  }
  const location = router.state.navigation.location;
  const same = location !== undefined && location.pathname === url.pathname && location.search === url.search;
  const hash = same ? location.hash : '';
  return { target: `${url.pathname}${url.search}${hash}`, hash, navigation: same && router.state.navigation.state === 'loading' };
}

async function defaultResults(matches: DataStrategyFunctionArgs['matches']): Promise<Results> {
  const toLoad = matches.filter((m) => m.shouldLoad);
  const results = await Promise.all(toLoad.map((m) => m.resolve()));
  return Object.fromEntries(results.map((result, i) => [toLoad[i]!.route.id, result]));
}

/** A thrown redirect Response goes back as the leaf's data (React Router follows it); anything else is its error. */
function thrownAsResult(leafId: string, thrown: unknown): Results {
  if (thrown instanceof Response && thrown.status >= 300 && thrown.status < 400) return { [leafId]: { type: 'data', result: thrown } };
  return { [leafId]: { type: 'error', result: thrown } };
}

/** Steps 1 to 3; null to go on to the loaders. */
async function beforeLoaders(
  app: AppDefinition,
  args: DataStrategyFunctionArgs,
  router: Router | null,
  url: URL,
  target: string,
  hash: string,
): Promise<Results | null> {
  const leaf = args.matches.at(-1)!;
  if (isBuildOutdated()) return fullLoad(target, router);
  const manifest = loadedManifest() ?? (await getAppManifest().catch(() => null));
  if (manifest) {
    const rule = manifest.redirectFor({ pathname: url.pathname, search: url.search, hash });
    if (rule?.external) return leaveSite(rule.location);
    if (rule) return { [leaf.route.id]: { type: 'data', result: redirect(rule.location, rule.statusCode) } };
  } else if (leaf.route.id === app.notFoundRouteId) {
    // Without the rules the browser cannot tell a redirect from a 404: the gateway can.
    return fullLoad(target, router);
  }
  const page = args.matches.map((m) => app.pageFileOf(m.route.id)).find(Boolean);
  if (!page) return null;
  try {
    const module = await page.load();
    const to = { fullPath: `${url.pathname}${url.search}`, path: url.pathname, params: leaf.params };
    await runMiddleware(resolveMiddleware(app.middleware, module.middleware), to, { side: 'client', request: args.request });
  } catch (error) {
    if (isChunkLoadError(error) && recoverFromChunkError(target) === 'reloading') return leaving();
    return thrownAsResult(leaf.route.id, error);
  }
  return null;
}

export function createNavigationStrategy(getRouter: () => Router | null, app: AppDefinition): DataStrategyFunction {
  return async (args) => {
    const router = getRouter();
    const url = new URL(args.request.url);
    const { target, hash, navigation } = targetOf(url, router);
    const checked = navigation && !args.fetcherKey;
    const outdatedBefore = isBuildOutdated();
    if (checked) {
      const early = await beforeLoaders(app, args, router, url, target, hash);
      if (early) return early;
    }
    const results = await defaultResults(args.matches);
    const chunkFailure = Object.values(results).some((r) => r.type === 'error' && isChunkLoadError(r.result));
    if (chunkFailure && recoverFromChunkError(target) === 'reloading') return leaving();
    // The payload came from a newer build than this page's code: load the page whole instead.
    if (checked && !outdatedBefore && isBuildOutdated()) return fullLoad(target, router);
    return results;
  };
}

/**
 * The app manifest: the meta of the build this page runs (`{assetsPrefix}builds/meta/{id}.json`),
 * whose route rules client navigations apply. Fetched 1000 ms after hydration (not on slow-2g),
 * or by the first navigation that needs it; the promise is shared, and forgotten on failure so a
 * later call tries again. Once loaded, matching is synchronous. Browser-safe.
 */
import type { RouteRulesMatcher } from '@tern/shared/route-rules/route-rules';
import type { BuildMeta } from '@tern/shared/build-store/types';
import { buildMetaPath } from '@tern/shared/url-space/build-files';
import { appConfig } from '../shared/app-config.js';
import { markBuildOutdated } from './build-freshness.js';
import type { ClientRedirect, NavigationUrl } from './route-rules-client.js';

/** docs/spec.md §9. */
export const MANIFEST_PREFETCH_DELAY_MS = 1000;
export const MANIFEST_PREFETCH_SKIPPED_ON = 'slow-2g';

export interface AppManifest {
  meta: BuildMeta;
  matcher: RouteRulesMatcher;
  /** The redirect the gateway would answer for this URL, or null (./route-rules-client.ts). */
  redirectFor(url: NavigationUrl): ClientRedirect | null;
}

/** The meta of a build that the store no longer keeps: this page runs an old build. */
export class BuildGoneError extends Error {
  constructor(readonly buildId: string) {
    super(`The meta of build ${buildId} is gone: a newer build replaced it`);
    this.name = 'BuildGoneError';
  }
}

let pending: Promise<AppManifest> | null = null;
let loaded: AppManifest | null = null;

export function manifestUrl(assetsPrefix: string, buildId: string): string {
  return buildMetaPath(assetsPrefix, buildId);
}

function isBuildMeta(value: unknown): value is BuildMeta {
  const meta = value as Partial<BuildMeta> | null;
  return (
    typeof meta === 'object' &&
    meta !== null &&
    typeof meta.id === 'string' &&
    typeof meta.matcher === 'object' &&
    Array.isArray(meta.prerendered)
  );
}

async function fetchManifest(fetcher: typeof fetch): Promise<AppManifest> {
  const { assetsPrefix, buildId } = appConfig();
  const response = await fetcher(manifestUrl(assetsPrefix, buildId), { headers: { accept: 'application/json' } });
  if (response.status === 404 || response.status === 403) throw new BuildGoneError(buildId);
  if (!response.ok) throw new Error(`The build meta answered ${response.status}`);
  const body: unknown = await response.json().catch(() => null);
  // An HTML fallback (a CDN's 200 page) is not a meta: say so rather than matching nothing.
  if (!isBuildMeta(body)) throw new Error(`The build meta of ${buildId} is not a build meta (is builds/meta/*.json served as JSON?)`);
  // The matcher (rou3) loads with the meta, not with the page: 4 KB (br) off the first load.
  const rules = await import('./route-rules-client.js');
  const matcher = rules.createRouteRulesMatcher(body.matcher);
  return { meta: body, matcher, redirectFor: (url) => rules.clientRedirectFor(matcher, url) };
}

/** The manifest, fetched once; a failed fetch is forgotten so the next call retries. */
export function getAppManifest(fetcher: typeof fetch = fetch): Promise<AppManifest> {
  if (loaded) return Promise.resolve(loaded);
  pending ??= fetchManifest(fetcher).then(
    (manifest) => {
      loaded = manifest;
      return manifest;
    },
    (error: unknown) => {
      pending = null;
      if (error instanceof BuildGoneError) markBuildOutdated('manifest');
      throw error;
    },
  );
  return pending;
}

/** The route-rules matcher if the manifest is already here (navigation then never waits). */
export function loadedManifest(): AppManifest | null {
  return loaded;
}

interface NetworkInformationLike {
  effectiveType?: string;
  saveData?: boolean;
}

export function connectionOf(nav: Navigator = navigator): NetworkInformationLike | undefined {
  return (nav as Navigator & { connection?: NetworkInformationLike }).connection;
}

/** docs/spec.md §9: warm the manifest 1000 ms after hydration, except on slow-2g. */
export function scheduleManifestPrefetch(delayMs = MANIFEST_PREFETCH_DELAY_MS): void {
  if (connectionOf()?.effectiveType === MANIFEST_PREFETCH_SKIPPED_ON) return;
  setTimeout(() => void getAppManifest().catch(() => undefined), delayMs);
}

/** Tests only: forget what was fetched. */
export function resetAppManifest(): void {
  pending = null;
  loaded = null;
}

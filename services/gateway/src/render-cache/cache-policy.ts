/**
 * The render cache's policy: which requests it may answer, and under which key. A request is
 * cached when it is a GET or HEAD of a page or payload, carries no credentials, and its route's
 * rule caches it; its key holds the build, the path, the declared query and the variant
 * (cache-key.ts), where the variant is what the built site says its pages vary by.
 */
import type { FastifyRequest } from 'fastify';
import type { PageVary } from '@tern/shared/build-store/types';
import { wantsJson } from '@tern/shared/errors/errors';
import type { CacheRule } from '@tern/shared/route-rules/types';
import { HEALTH_PATH, READY_PATH } from '@tern/shared/url-space/health';
import { isImagePath } from '@tern/shared/url-space/images';
import { pagePathOfPayload } from '@tern/shared/url-space/payload';
import type { CurrentBuild } from '../current-build.js';
import { payloadBuildId } from '../renderer-choice.js';
import type { GatewayRequestState } from '../request-state.js';
import { cacheKey, declaredQuery, readCookie, variantOf } from './cache-key.js';

/** What the cache does with one request it may answer. */
export interface CacheDecision {
  rule: CacheRule;
  key: string;
  /** What the renderer is asked for on a fill: the path and the declared query. */
  url: string;
  /** What the build's pages vary by, which a fill passes on (cache-fill.ts fillHeaders). */
  pageVaries: readonly PageVary[];
}

export interface CachePolicy {
  /** A GET or HEAD of a page or payload: the only requests the cache answers. */
  isPageRequest(request: FastifyRequest, state: GatewayRequestState): boolean;
  /**
   * Signed-in visitors (or anyone sending credentials): never an anonymous answer. A page with
   * personal parts is the shared entry with theirs filled in; any other is rendered for them.
   */
  hasCredentials(request: FastifyRequest): boolean;
  /** The value of the site's session cookie on the request, if any. */
  sessionOf(request: FastifyRequest): string | undefined;
  /** The rule and key of a request the cache may answer, or null when its route is not cached (a bypass). */
  decide(request: FastifyRequest, state: GatewayRequestState): CacheDecision | null;
}

export interface CachePolicyOptions {
  /** The site's origin (PUBLIC_ORIGIN): in every key, whatever Host the visitor sent. */
  publicOrigin: string;
  /** True when a renderer of that build is announced: its payloads go there, past the cache. */
  servesBuild?: ((buildId: string) => boolean) | undefined;
}

/** The page a path belongs to: itself, or the page of a `{route}/_payload.json`. */
export function pageOf(path: string): { page: string; payload: boolean } {
  const page = pagePathOfPayload(path);
  return page === null ? { page: path, payload: false } : { page, payload: true };
}

/** Pages and payloads: not assets, the API, images or the gateway's own endpoints. */
export function isPagePath(url: string, assetsPrefix: string): boolean {
  return !(
    url.startsWith(assetsPrefix) ||
    url.startsWith('/api/') ||
    url === '/api' ||
    isImagePath(url) ||
    url.startsWith(HEALTH_PATH) ||
    url.startsWith(READY_PATH)
  );
}

export function createCachePolicy(build: CurrentBuild, options: CachePolicyOptions): CachePolicy {
  // The build names the site's session cookie.
  const sessionOf = (request: FastifyRequest): string | undefined => {
    const cookie = build.sessionCookie();
    return cookie === undefined ? undefined : readCookie(request.headers.cookie, cookie);
  };
  return {
    isPageRequest: (request, state) => (request.method === 'GET' || request.method === 'HEAD') && state.page,
    hasCredentials: (request) => Boolean(request.headers.authorization) || sessionOf(request) !== undefined,
    sessionOf,
    decide(request, state) {
      const { path, search } = state;
      const { page, payload } = pageOf(path);
      const rule = (payload ? build.matcher().match(page) : state.routeRules)?.cache;
      const buildId = build.info()?.id;
      if (!rule || !buildId) return null;
      // A tab on an older build whose renderers still run gets its own build's data (not cached here).
      const named = payload ? payloadBuildId(`${path}?${search}`) : null;
      if (named && named !== buildId && options.servesBuild?.(named)) return null;
      // Only what the route declares it reads (a payload's `?{buildId}` never is: the key has the
      // build already); no per-path allowance, so no client can use one up.
      const query = declaredQuery(search, rule.query);
      const json = wantsJson({ url: path, headers: request.headers });
      const pageVaries = build.pageVaries();
      const variant = variantOf(request.headers, rule.varies, pageVaries, options.publicOrigin, json);
      return { rule, key: cacheKey(buildId, path, query, variant).key, url: query ? `${path}?${query}` : path, pageVaries };
    },
  };
}

/**
 * What the gateway learns about one request on its way through its phases (pipeline.ts), in one
 * typed place: the URL split once into path and query, and what each phase found. It hangs on the
 * request under a symbol only this module holds, instead of `declare module 'fastify'` fields:
 * those would type every service's requests (the image and icons services share the tsconfig)
 * with the gateway's own state.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { MatchedRouteRules } from '@tern/shared/route-rules/route-rules';

export type CacheStatus = 'HIT' | 'STALE' | 'MISS' | 'BYPASS';
export type AssetSourceName = 'local' | 'memory' | 'store';

export interface GatewayRequestState {
  /** The request's path, before any `?` (as sent: the canonical-path phase redirects other spellings). */
  path: string;
  /** The query after the `?`, without it; '' when none. */
  search: string;
  /** A page or payload path (not an asset, the API, an image or a health endpoint). */
  page: boolean;
  /** The rules of the current build for this request's path; null for the gateway's own paths. */
  routeRules: MatchedRouteRules | null;
  /** The gateway answered a build file itself (no upstream, no rule headers). */
  buildFile: boolean;
  /** Where the gateway found a client file itself (the access line says it). */
  assetSource: AssetSourceName | null;
  /** What the render cache did with a page or payload; null when it is none. */
  cacheStatus: CacheStatus | null;
}

const STATE = Symbol('gateway request state');

type Holder = { [STATE]: GatewayRequestState | null };

/**
 * Declared on the app, so Fastify gives every request the slot when it makes it: the requests keep
 * one shape, which V8 keeps fast, rather than each gaining a property on the way.
 */
export function decorateRequestState(app: FastifyInstance): void {
  app.decorateRequest(STATE, null);
}

/**
 * The request's state, made on first use (the pipeline's first phase), where its URL is split:
 * nothing after reads `request.url` for its path again. `isPage` says which paths are pages.
 */
export function stateOf(request: FastifyRequest, isPage: (path: string) => boolean = () => false): GatewayRequestState {
  const holder = request as unknown as Holder;
  return (holder[STATE] ??= newState(request.url, isPage));
}

function newState(url: string, isPage: (path: string) => boolean): GatewayRequestState {
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  return {
    path,
    search: query === -1 ? '' : url.slice(query + 1),
    page: isPage(path),
    routeRules: null,
    buildFile: false,
    assetSource: null,
    cacheStatus: null,
  };
}

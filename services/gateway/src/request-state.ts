/**
 * What the gateway learns about one request on its way through the pipeline (pipeline.ts), in one
 * typed place. It hangs on the request under a symbol only this module holds, instead of
 * `declare module 'fastify'` fields: those would type every service's requests (the image and
 * icons services share the tsconfig) with the gateway's own state.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { MatchedRouteRules } from '#lib/route-rules.js';

export type CacheStatus = 'HIT' | 'STALE' | 'MISS' | 'BYPASS';
export type AssetSourceName = 'local' | 'memory' | 'store';

export interface GatewayRequestState {
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

/** The request's state, made on first use. */
export function stateOf(request: FastifyRequest): GatewayRequestState {
  const holder = request as unknown as Holder;
  return (holder[STATE] ??= { routeRules: null, buildFile: false, assetSource: null, cacheStatus: null });
}

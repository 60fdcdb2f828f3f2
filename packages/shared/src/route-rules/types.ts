/**
 * The shape of route rules once the build has normalised them. Shared by the build, the
 * gateway, the build store and the browser, so it holds types only; each kind's own type is in
 * its file, and the whole is made from the kinds registered in route-rule-kinds.ts.
 */
import type { RouteRules } from './kinds.js';

export type { RedirectRule } from './kinds/redirect.js';
export type { CacheRule } from './kinds/cache.js';
export type { RouteRules };

/** Pattern -> normalised rules, as the build writes them into the build meta. */
export type CompiledRouteRules = Record<string, RouteRules>;

/** The merged rules for one path, and where the winning redirect came from. */
export interface MatchedRouteRules extends RouteRules {
  /** For a `/**` redirect: the part of the request path after the rule's prefix. */
  redirectRest?: string;
}

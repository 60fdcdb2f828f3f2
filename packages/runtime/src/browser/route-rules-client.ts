/**
 * Route-rule redirects on client navigations, with the gateway's own matcher and Location
 * builder (packages/shared/src/route-rules/route-rules.ts): `/**` targets get the rest of the path and the query is kept,
 * which Nuxt's client does not do. The hash stays unless the target has its own. Browser-safe.
 */
import { buildRedirectLocation, isExternalTarget, type RouteRulesMatcher } from '@tern/shared/route-rules/route-rules';

// Loaded with the app manifest (./app-manifest.ts), so the matcher comes from this chunk too.
export { createRouteRulesMatcher } from '@tern/shared/route-rules/route-rules';

export interface ClientRedirect {
  location: string;
  /** An http(s) URL: the browser leaves the app (a full navigation). */
  external: boolean;
  statusCode: number;
}

export interface NavigationUrl {
  pathname: string;
  search: string;
  hash: string;
}

/** The redirect the gateway would answer for this URL, or null when no rule redirects it. */
export function clientRedirectFor(matcher: RouteRulesMatcher, url: NavigationUrl): ClientRedirect | null {
  const rules = matcher.match(url.pathname);
  if (!rules.redirect) return null;
  let location = buildRedirectLocation(rules.redirect, `${url.pathname}${url.search}`, rules.redirectRest ?? '');
  if (url.hash && url.hash !== '#' && !location.includes('#')) location += url.hash;
  const current = `${url.pathname}${url.search}${url.hash}`;
  // A rule that sends a path to itself would loop: the server would loop too, so leave it to it.
  if (location === current) return null;
  return { location, external: isExternalTarget(location), statusCode: rules.redirect.statusCode };
}

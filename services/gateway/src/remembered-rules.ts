/**
 * The route rules of each path, remembered for the build they belong to: the gateway matches
 * every request's path, cache hits included, and a site's visitors ask for the same pages again
 * and again. The memory is bounded (#packages/shared/src/process/remembered.ts), and a new build brings a new matcher and
 * so an empty memory. Answers are frozen: every request of the path shares one.
 */
import type { MatchedRouteRules, RouteRulesMatcher } from '@tern/shared/route-rules/route-rules';
import { remembered } from '@tern/shared/process/remembered';

export function rememberMatches(matcher: RouteRulesMatcher): RouteRulesMatcher {
  const match = remembered((path) => frozen(matcher.match(path)), { maxEntries: 2000, maxKeyLength: 256 });
  return { size: matcher.size, match };
}

function frozen(rules: MatchedRouteRules): MatchedRouteRules {
  if (rules.headers) Object.freeze(rules.headers);
  return Object.freeze(rules);
}

/**
 * The route rules of each path, remembered for the build they belong to: the gateway matches
 * every request's path, cache hits included, and a site's visitors ask for the same pages again
 * and again. The memory is bounded (count, and paths too long are matched afresh), and a new
 * build brings a new matcher and so an empty memory. Answers are frozen: every request of the
 * path shares one.
 */
import { LRUCache } from 'lru-cache';
import type { MatchedRouteRules, RouteRulesMatcher } from '#lib/route-rules.js';

const MAX_PATHS = 2000;
const MAX_KEPT_LENGTH = 256;

export function rememberMatches(matcher: RouteRulesMatcher): RouteRulesMatcher {
  const known = new LRUCache<string, MatchedRouteRules>({ max: MAX_PATHS });
  return {
    size: matcher.size,
    match(path) {
      if (path.length > MAX_KEPT_LENGTH) return matcher.match(path);
      let rules = known.get(path);
      if (!rules) known.set(path, (rules = frozen(matcher.match(path))));
      return rules;
    },
  };
}

function frozen(rules: MatchedRouteRules): MatchedRouteRules {
  if (rules.headers) Object.freeze(rules.headers);
  return Object.freeze(rules);
}

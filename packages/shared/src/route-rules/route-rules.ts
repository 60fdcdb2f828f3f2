/**
 * Route rules: validated at build time, matched with a radix tree (rou3) at request time, and
 * turned into a redirect Location. Browser-safe: the client runtime applies the same redirects.
 * What each kind means is in its own file, registered in route-rule-kinds.ts.
 */
import { addRoute, createRouter, findAllRoutes, type RouterContext } from 'rou3';
import type { CacheRule, CompiledRouteRules, MatchedRouteRules, RedirectRule, RouteRules } from './types.js';
import { RouteRuleError } from './route-rule-error.js';
import { ROUTE_RULE_INPUTS, routeRuleKinds, type RouteRuleInput } from './kinds.js';
import type { MergingRules } from './kind.js';

export { RouteRuleError };
export {
  buildRedirectLocation,
  DEFAULT_REDIRECT_STATUS,
  isExternalTarget,
  isValidRedirectTarget,
  REDIRECT_STATUSES,
} from './kinds/redirect.js';
export type { CacheRuleInput } from './kinds/cache.js';

export type { CacheRule, CompiledRouteRules, MatchedRouteRules, RedirectRule, RouteRuleInput, RouteRules };

export type RouteRulesInput = Record<string, RouteRuleInput>;

/** One pattern's rules, every kind normalised. */
function normalizeRule(pattern: string, rule: RouteRuleInput): RouteRules {
  if (!pattern.startsWith('/')) throw new RouteRuleError(pattern, 'a pattern must start with /');
  if (!rule || typeof rule !== 'object') throw new RouteRuleError(pattern, 'rules must be an object');
  const unknown = Object.keys(rule).filter((key) => !ROUTE_RULE_INPUTS.has(key));
  if (unknown.length > 0) throw new RouteRuleError(pattern, `unknown key ${unknown.join(', ')}`);
  const compiled: Record<string, unknown> = {};
  for (const [name, kind] of routeRuleKinds()) {
    const value = kind.normalize(pattern, rule);
    if (value !== undefined) compiled[name] = value;
  }
  return compiled as RouteRules;
}

/** Build time: checks every rule and fills in defaults. Throws a RouteRuleError naming the rule. */
export function normalizeRouteRules(input: RouteRulesInput): CompiledRouteRules {
  const out: CompiledRouteRules = {};
  for (const [pattern, rule] of Object.entries(input)) out[pattern] = normalizeRule(pattern, rule);
  createRouteRulesMatcher(out); // a pattern rou3 cannot read fails the build, named
  return out;
}

export interface RouteRulesMatcher {
  match(path: string): MatchedRouteRules;
  readonly size: number;
}

interface Entry {
  pattern: string;
  rules: RouteRules;
  /** Nuxt's order: 0 wildcard, 1 dynamic, 2 exact; wildcards then by prefix length. */
  kind: number;
  prefixLength: number;
}

/** `*` means one segment here (as in Nuxt); rou3 reads a bare `*` as the rest of the path. */
function toRou3Pattern(pattern: string): string {
  let n = 0;
  return pattern
    .split('/')
    .map((segment) => (segment === '*' ? `:_s${n++}` : segment))
    .join('/');
}

function entryFor(pattern: string, rules: RouteRules): Entry {
  const wildcard = pattern.endsWith('/**') || pattern === '/**';
  const dynamic = /(^|\/)(:|\*)/.test(pattern);
  const kind = wildcard ? 0 : dynamic ? 1 : 2;
  return { pattern, rules, kind, prefixLength: wildcard ? pattern.length - 3 : pattern.length };
}

function bySpecificity(a: { entry: Entry; order: number }, b: { entry: Entry; order: number }): number {
  return a.entry.kind - b.entry.kind || a.entry.prefixLength - b.entry.prefixLength || a.order - b.order;
}

/** Request time: a radix matcher, so 10 rules and 10,000 rules cost the same per lookup. */
export function createRouteRulesMatcher(compiled: CompiledRouteRules): RouteRulesMatcher {
  const router: RouterContext<Entry> = createRouter<Entry>();
  for (const [pattern, rules] of Object.entries(compiled)) {
    try {
      addRoute(router, '', toRou3Pattern(pattern), entryFor(pattern, rules));
    } catch (error) {
      throw new RouteRuleError(pattern, (error as Error).message);
    }
  }
  return {
    size: Object.keys(compiled).length,
    match(path) {
      const query = path.indexOf('?');
      const pathname = (query === -1 ? path : path.slice(0, query)) || '/';
      const found = findAllRoutes(router, '', pathname, { normalize: true });
      const ordered = found.map((m, order) => ({ entry: m.data, order, params: m.params })).sort(bySpecificity);
      const merged: MergingRules = {};
      for (const { entry, params } of ordered) mergeInto(merged, entry, params);
      return merged as MatchedRouteRules;
    },
  };
}

/** Folds one matched pattern's rules into `merged`, each kind by its own merge (the later one wins by default). */
function mergeInto(merged: MergingRules, entry: Entry, params: Record<string, string> | undefined): void {
  const match = { wildcard: entry.kind === 0, rest: params?.['0'] ?? '' };
  for (const [name, kind] of KINDS) {
    const value = entry.rules[name];
    if (value === undefined) continue;
    if (kind.merge) kind.merge(merged, name, value, match);
    else merged[name] = value;
  }
}

const KINDS = routeRuleKinds();

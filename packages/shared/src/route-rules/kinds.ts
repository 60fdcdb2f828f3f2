/**
 * Every route-rule kind, registered once. A kind is one file (its input, normalised value, merge
 * and the headers it adds to an answer: kind.ts); adding one is that file and a line in
 * ROUTE_RULE_KINDS below. The config's types (types.ts) are made from them, the
 * build normalises with them (route-rules.ts), the matcher merges with them, and the gateway adds
 * their headers to every answer and to every cache hit alike.
 */
import type { AnswerFacts, RouteRuleKind } from './kind.js';
import { cacheKind } from './kinds/cache.js';
import { headersKind } from './kinds/headers.js';
import { prerenderKind } from './kinds/prerender.js';
import { redirectKind } from './kinds/redirect.js';
import { robotsKind } from './kinds/robots.js';
import { ssrKind } from './kinds/ssr.js';

/** The kinds by the name their normalised value goes under, in the order the build checks them. */
export const ROUTE_RULE_KINDS = {
  redirect: redirectKind,
  headers: headersKind,
  robots: robotsKind,
  cache: cacheKind,
  prerender: prerenderKind,
  ssr: ssrKind,
} as const;

type Kinds = typeof ROUTE_RULE_KINDS;
type ValueOf<K> = K extends RouteRuleKind<infer Value, never> ? Value : never;
type InputOf<K> = K extends RouteRuleKind<never, infer Input> ? Input : never;
type Intersection<U> = (U extends unknown ? (each: U) => void : never) extends (all: infer I) => void ? I : never;

/** What the site config declares for one pattern: every kind's input. */
export type RouteRuleInput = Intersection<{ [Name in keyof Kinds]: InputOf<Kinds[Name]> }[keyof Kinds]>;

/** One pattern's rules once the build has normalised them: each kind's value under its name. */
export type RouteRules = { -readonly [Name in keyof Kinds]?: ValueOf<Kinds[Name]> };

export type RouteRuleName = keyof Kinds;

const NAMES = Object.keys(ROUTE_RULE_KINDS) as RouteRuleName[];

/** Every input key a rule may have. */
export const ROUTE_RULE_INPUTS: ReadonlySet<string> = new Set(NAMES.flatMap((name) => ROUTE_RULE_KINDS[name].inputs));

/** The kinds as [name, kind] pairs, for code that walks them all. */
export const routeRuleKinds = (): readonly (readonly [RouteRuleName, RouteRuleKind<unknown>])[] =>
  NAMES.map((name) => [name, ROUTE_RULE_KINDS[name] as unknown as RouteRuleKind<unknown>] as const);

// The kinds that add headers, walked on every answer: made once.
const WITH_HEADERS = routeRuleKinds().filter(([, kind]) => kind.answerHeaders);

/**
 * The headers the request's rules add to an answer (at the gateway, and on a cache hit written
 * straight to the socket): each kind's in the registry's order.
 */
export function ruleAnswerHeaders(rules: RouteRules, answer: AnswerFacts): [string, string][] {
  const headers: [string, string][] = [];
  for (const [name, kind] of WITH_HEADERS) {
    const value = rules[name];
    if (value !== undefined) for (const [header, text] of kind.answerHeaders!(value, answer)) headers.push([header, text]);
  }
  return headers;
}

import { describe, expect, it } from 'vitest';
import { ROUTE_RULE_INPUTS, ROUTE_RULE_KINDS, routeRuleKinds, ruleAnswerHeaders } from './kinds.js';
import { createRouteRulesMatcher, normalizeRouteRules, RouteRuleError } from './route-rules.js';

describe('route-rule kinds', () => {
  it('accept exactly the input keys their kinds declare', () => {
    expect([...ROUTE_RULE_INPUTS].sort()).toEqual(['cache', 'headers', 'isr', 'prerender', 'redirect', 'robots', 'ssr', 'swr']);
    expect(() => normalizeRouteRules({ '/x': { ttl: 5 } as never })).toThrow(RouteRuleError);
  });

  it('invent no value for a rule that does not name them', () => {
    for (const [name, kind] of routeRuleKinds()) expect([name, kind.normalize('/x', {})]).toEqual([name, undefined]);
  });

  it('put each normalised value under its kind name', () => {
    const compiled = normalizeRouteRules({ '/a/**': { robots: false, swr: 60, headers: { 'X-A': '1' }, ssr: false } });
    expect(Object.keys(compiled['/a/**']!).sort()).toEqual(['cache', 'headers', 'robots', 'ssr']);
    expect(compiled['/a/**']!.headers).toEqual({ 'x-a': '1' });
  });

  it('merge by each kind: headers add up, the more specific redirect wins with its rest, the rest replace', () => {
    const matcher = createRouteRulesMatcher(
      normalizeRouteRules({
        '/docs/**': { headers: { 'x-a': '1' }, robots: false, redirect: '/new/**' },
        '/docs/guide/**': { headers: { 'x-b': '2' }, robots: true },
      }),
    );
    const rules = matcher.match('/docs/guide/intro');
    expect(rules.headers).toEqual({ 'x-a': '1', 'x-b': '2' });
    expect(rules.robots).toBe(true);
    expect([rules.redirect?.to, rules.redirectRest]).toEqual(['/new/**', 'guide/intro']);
  });

  it('add the same headers to an answer through any path: robots always, headers on proxied answers below 400', () => {
    const rules = { robots: false, headers: { 'cache-control': 'public, max-age=60' } };
    expect(ruleAnswerHeaders(rules, { proxied: true, status: 200 })).toEqual([
      ['cache-control', 'public, max-age=60'],
      ['x-robots-tag', 'noindex'],
    ]);
    expect(ruleAnswerHeaders(rules, { proxied: true, status: 404 })).toEqual([['x-robots-tag', 'noindex']]);
    expect(ruleAnswerHeaders(rules, { proxied: false, status: 200 })).toEqual([['x-robots-tag', 'noindex']]);
    expect(ruleAnswerHeaders({ robots: true }, { proxied: true, status: 200 })).toEqual([]);
  });

  it('are registered once, each with a file of its own', () => {
    expect(Object.keys(ROUTE_RULE_KINDS)).toEqual(['redirect', 'headers', 'robots', 'cache', 'prerender', 'ssr']);
  });
});

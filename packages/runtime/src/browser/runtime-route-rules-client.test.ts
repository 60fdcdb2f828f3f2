import { describe, expect, it } from 'vitest';
import { buildRedirectLocation, createRouteRulesMatcher, normalizeRouteRules } from '@tern/shared/route-rules/route-rules';
import { routeRules } from 'cookbook/route-rules';
import { clientRedirectFor } from './route-rules-client.js';

const matcher = createRouteRulesMatcher(
  normalizeRouteRules({
    ...routeRules,
    '/old/**': { redirect: '/new/**' },
    '/docs/*/legacy': { redirect: { to: '/docs', statusCode: 301 } },
    '/away/**': { redirect: 'https://example.com/away' },
    '/self': { redirect: '/self' },
  }),
);

const at = (url: string) => {
  const parsed = new URL(url, 'http://x');
  return { pathname: parsed.pathname, search: parsed.search, hash: parsed.hash };
};

describe('client redirects', () => {
  it('expands /** with the rest of the path and keeps the query and the hash', () => {
    expect(clientRedirectFor(matcher, at('/categories/git?from=old#undo'))).toEqual({
      location: '/category/git?from=old#undo',
      external: false,
      statusCode: 308,
    });
    expect(clientRedirectFor(matcher, at('/old/a/b'))?.location).toBe('/new/a/b');
    expect(clientRedirectFor(matcher, at('/old'))?.location).toBe('/new');
  });

  it('gives the same Location as the gateway for the same URL (one matcher, one builder)', () => {
    for (const url of ['/home?x=1', '/categories/a/b?c=d', '/docs/v1/legacy', '/source?q=1']) {
      const rules = matcher.match(url);
      expect(clientRedirectFor(matcher, at(url))?.location).toBe(buildRedirectLocation(rules.redirect!, url, rules.redirectRest ?? ''));
    }
  });

  it('marks http(s) targets external, for a full browser navigation', () => {
    expect(clientRedirectFor(matcher, at('/source'))).toEqual({ location: 'https://example.com/source', external: true, statusCode: 302 });
    expect(clientRedirectFor(matcher, at('/away/x?y=1'))?.location).toBe('https://example.com/away?y=1');
  });

  it('leaves paths without a redirect alone, and a rule pointing at itself', () => {
    expect(clientRedirectFor(matcher, at('/category/git'))).toBeNull();
    expect(clientRedirectFor(matcher, at('/login'))).toBeNull();
    expect(clientRedirectFor(matcher, at('/self'))).toBeNull();
  });

  it('keeps the target hash over the navigation one', () => {
    const withHash = createRouteRulesMatcher(normalizeRouteRules({ '/faq': { redirect: '/help#faq' } }));
    expect(clientRedirectFor(withHash, at('/faq#other'))?.location).toBe('/help#faq');
  });
});

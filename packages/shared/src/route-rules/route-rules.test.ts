import { describe, expect, it } from 'vitest';
import {
  buildRedirectLocation,
  createRouteRulesMatcher,
  isValidRedirectTarget,
  normalizeRouteRules,
  RouteRuleError,
  type RouteRulesInput,
} from './route-rules.js';
import { routeRules as siteRules } from 'cookbook/route-rules';

const h = (value: string) => ({ headers: { 'x-rule': value } });

describe('precedence: the most specific rule wins key by key', () => {
  const matcher = createRouteRulesMatcher(
    normalizeRouteRules({
      '/**': { ...h('root-wildcard'), robots: true },
      '/a/**': h('a-wildcard'),
      '/a/b/**': h('ab-wildcard'),
      '/a/:x': h('a-dynamic'),
      '/a/*/c': h('a-star-c'),
      '/a/b': h('a-exact'),
      '/docs/**': { headers: { 'x-one': '1', 'x-rule': 'docs' }, robots: false },
      '/docs/private': { headers: { 'x-two': '2' } },
    }),
  );
  const table: Array<[string, string]> = [
    ['/a/b', 'a-exact'], // exact beats dynamic and every wildcard
    ['/a/z', 'a-dynamic'], // dynamic beats wildcards
    ['/a/b/c', 'a-star-c'], // dynamic (one-segment *) beats the longer wildcard
    ['/a/b/d', 'ab-wildcard'], // the longer wildcard beats the shorter
    ['/a/b/d/e', 'ab-wildcard'],
    ['/a', 'a-wildcard'], // /a/** matches /a itself
    ['/a/', 'a-wildcard'], // a trailing slash is ignored
    ['/zzz', 'root-wildcard'],
    ['/a/b?x=1', 'a-exact'], // the query is not part of the match
  ];
  it.each(table)('%s -> %s', (path, expected) => {
    expect(matcher.match(path).headers?.['x-rule']).toBe(expected);
  });

  it('deep-merges headers and keeps less specific keys that nothing overrides', () => {
    expect(matcher.match('/docs/private')).toEqual({
      headers: { 'x-rule': 'docs', 'x-one': '1', 'x-two': '2' },
      robots: false,
    });
  });

  it('matches * as exactly one segment', () => {
    expect(matcher.match('/a/x/y/c').headers?.['x-rule']).toBe('a-wildcard');
  });

  it('resolves dot segments before matching, so rules cannot be sidestepped', () => {
    expect(matcher.match('/x/../docs/private').headers?.['x-two']).toBe('2');
  });

  it('takes the redirect of the most specific rule and reports the rest of the path for /**', () => {
    const m = createRouteRulesMatcher(normalizeRouteRules({ '/old/**': { redirect: '/new/**' }, '/old/keep': { redirect: '/kept' } }));
    expect(m.match('/old/a/b')).toEqual({ redirect: { to: '/new/**', statusCode: 307 }, redirectRest: 'a/b' });
    expect(m.match('/old/keep')).toEqual({ redirect: { to: '/kept', statusCode: 307 } });
    expect(m.match('/other')).toEqual({});
  });
});

describe('buildRedirectLocation', () => {
  const rule = (to: string) => ({ to, statusCode: 308 });
  const location = (to: string, pattern: string, url: string) => {
    const m = createRouteRulesMatcher(normalizeRouteRules({ [pattern]: { redirect: to } })).match(url);
    if (!m.redirect) throw new Error(`no redirect for ${url}`);
    return buildRedirectLocation(m.redirect, url, m.redirectRest);
  };
  const cases: Array<[string, string, string, string]> = [
    ['/category/**', '/categories/**', '/categories/rust', '/category/rust'],
    ['/category/**', '/categories/**', '/categories/rust/async?page=2&x', '/category/rust/async?page=2&x'],
    ['/category/**', '/categories/**', '/categories', '/category'],
    ['/category/**', '/categories/**', '/categories/?q=1', '/category?q=1'],
    ['/**', '/old/**', '/old//evil.example', '/evil.example'],
    ['/**', '/old/**', '/old///evil.example/x', '/evil.example/x'],
    ['/**', '/old/**', '/old/%2Fevil.example', '/evil.example'],
    ['/**', '/old/**', '/old/%2f%2Fevil.example', '/evil.example'],
    ['/**', '/old/**', '/old/%5Cevil.example', '/evil.example'],
    ['/**', '/old/**', '/old/%5c%5cevil.example', '/evil.example'],
    ['/**', '/old/**', '/old', '/'],
    ['/**', '/old/**', '/old?x=1', '/?x=1'],
    ['/**', '/old/**', '/old/caf%C3%A9/%20x', '/caf%C3%A9/%20x'],
    ['/category/**', '/categories/**', '/categories/%2e%2e%2f%2e%2e%2fevil.com', '/category/evil.com'],
    ['/category/**', '/categories/**', '/categories/%2E%2E/%2e./.%2E/evil.com', '/category/evil.com'],
    ['/category/**', '/categories/**', '/categories/%2e/rust', '/category/rust'],
    ['/category/**', '/categories/**', '/categories/..%2f..%5cevil.com', '/category/evil.com'],
    ['/category/**', '/categories/**', '/categories/%252e%252e/x', '/category/%252e%252e/x'],
    ['/', '/home', '/home', '/'],
    ['/', '/home', '/home?utm=1', '/?utm=1'],
    ['/target?a=1&b=2#top', '/q', '/q?b=3&c=4', '/target?a=1&b=3&c=4#top'],
    ['https://example.com/source', '/source', '/source', 'https://example.com/source'],
    ['https://example.com/source', '/source', '/source?ref=x', 'https://example.com/source?ref=x'],
    ['https://example.com/**', '/ext/**', '/ext/@evil.example', 'https://example.com/@evil.example'],
    ['https://example.com/docs/**', '/ext/**', '/ext//a/b', 'https://example.com/docs/a/b'],
  ];
  it.each(cases)('%s (rule %s): %s -> %s', (to, pattern, url, expected) => {
    expect(location(to, pattern, url)).toBe(expected);
  });

  it('never yields a Location that a browser resolves outside the target prefix', () => {
    const escapes = ['/%2e%2e/%2e%2e/evil', '/%2e%2e%2f%2e%2e%2fevil', '/.%2E/x', '/%2e%2e%5c..%5cevil', '/a/%2e%2e/%2e%2e/b'];
    for (const escape of escapes) {
      const result = buildRedirectLocation(rule('/category/**'), `/categories${escape}`, escape.slice(1));
      expect(new URL(result, 'https://site.example').pathname, escape).toMatch(/^\/category(\/|$)/);
    }
  });

  it('never yields a Location that a browser reads as another origin', () => {
    const attacks = [
      '//evil.example',
      '/\\evil.example',
      '/%2F/evil.example',
      '/%5C%2Fevil.example',
      '/\t/evil.example',
      '/./evil.example',
      '/../evil.example',
    ];
    for (const attack of attacks) {
      const result = buildRedirectLocation(rule('/**'), `/old${attack}`, attack.slice(1));
      expect(result, attack).toMatch(/^\/(?![/\\])/);
      expect(new URL(result, 'https://site.example').host, attack).toBe('site.example');
    }
  });
});

describe('normalizeRouteRules at build time', () => {
  it('defaults the redirect status to 307 and lowercases header names', () => {
    expect(normalizeRouteRules({ '/a': { redirect: '/b', headers: { 'Cache-Control': 'no-store' } } })).toEqual({
      '/a': { redirect: { to: '/b', statusCode: 307 }, headers: { 'cache-control': 'no-store' } },
    });
  });

  const bad: Array<[string, RouteRulesInput]> = [
    ['javascript: target', { '/x': { redirect: 'javascript:alert(1)' } }],
    ['protocol-relative target', { '/x': { redirect: '//evil.example' } }],
    ['backslash target', { '/x': { redirect: '/\\evil.example' } }],
    ['relative target', { '/x': { redirect: 'somewhere' } }],
    ['ftp target', { '/x': { redirect: 'ftp://example.com/a' } }],
    ['empty target', { '/x': { redirect: '' } }],
    ['target with spaces', { '/x': { redirect: '/a b' } }],
    ['bad status', { '/x': { redirect: { to: '/a', statusCode: 200 } } }],
    ['/** target without /** pattern', { '/x': { redirect: '/y/**' } }],
    ['star inside target', { '/x/**': { redirect: '/y/*/z' } }],
    ['unknown key', { '/x': { proxy: '/y' } as never }],
    ['bad header name', { '/x': { headers: { 'bad name': 'v' } } }],
    ['header with newline', { '/x': { headers: { 'x-a': 'v\r\nset-cookie: a' } } }],
    ['pattern without slash', { x: { robots: false } }],
  ];
  it.each(bad)('refuses a %s and names the rule', (_label, input) => {
    const pattern = Object.keys(input)[0]!;
    expect(() => normalizeRouteRules(input)).toThrow(RouteRuleError);
    expect(() => normalizeRouteRules(input)).toThrow(JSON.stringify(pattern));
  });

  it('accepts paths and http(s) URLs only', () => {
    expect(isValidRedirectTarget('/a?b=1#c')).toBe(true);
    expect(isValidRedirectTarget('HTTPS://example.com')).toBe(true);
    expect(isValidRedirectTarget('http://')).toBe(false);
    expect(isValidRedirectTarget('data:text/html,x')).toBe(false);
  });

  it('compiles the site demo rules', () => {
    const m = createRouteRulesMatcher(normalizeRouteRules(siteRules));
    expect(m.match('/home').redirect).toEqual({ to: '/', statusCode: 301 });
    expect(m.match('/categories/go').redirect).toEqual({ to: '/category/**', statusCode: 308 });
    expect(m.match('/source').redirect).toEqual({ to: 'https://example.com/source', statusCode: 302 });
    expect(m.match('/_nuxt/entry.js').headers?.['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(m.match('/login').robots).toBe(false);
  });

  it('normalises swr, isr and cache into one cache rule, and every false opts out', () => {
    const rules = normalizeRouteRules({
      '/a': { swr: 60 },
      '/b': { isr: true },
      '/c': { cache: { maxAge: 10, staleMaxAge: 30, varies: ['Accept-Language', 'cookie:lang'] } },
      '/d': { cache: { swr: false } },
      '/e/**': { isr: true },
      '/e/private': { isr: false },
      '/f': { prerender: true, ssr: true },
      '/g': { ssr: false },
      '/h': { cache: { maxAge: 5, query: ['page', 'sort', 'page'] } },
    });
    expect(rules['/a']!.cache).toEqual({ maxAge: 60, staleMaxAge: null, varies: [] });
    expect(rules['/b']!.cache).toEqual({ maxAge: null, staleMaxAge: null, varies: [] });
    expect(rules['/c']!.cache).toEqual({ maxAge: 10, staleMaxAge: 30, varies: ['accept-language', 'cookie:lang'] });
    expect(rules['/d']!.cache).toEqual({ maxAge: 1, staleMaxAge: 0, varies: [] });
    expect(rules['/h']!.cache).toEqual({ maxAge: 5, staleMaxAge: null, varies: [], query: ['page', 'sort'] });
    const matcher = createRouteRulesMatcher(rules);
    expect(matcher.match('/e/public').cache).toEqual({ maxAge: null, staleMaxAge: null, varies: [] });
    expect(matcher.match('/e/private').cache).toBe(false);
    expect([matcher.match('/f').prerender, matcher.match('/g').ssr]).toEqual([true, false]);
  });

  it.each([
    [{ '/x': { swr: 1, isr: true } }, 'use one of swr, isr and cache, not swr and isr'],
    [{ '/x': { swr: 0 } }, 'swr: 0 caches nothing'],
    [{ '/x': { swr: -5 } }, 'swr must be a whole number of seconds'],
    [{ '/x': { isr: 'yes' } }, 'isr must be a number of seconds, true or false'],
    [{ '/x': { cache: { maxAge: 1.5 } } }, 'cache.maxAge must be a whole number of seconds'],
    [{ '/x': { cache: { ttl: 5 } } }, 'unknown cache option ttl'],
    [{ '/x': { cache: { varies: ['cookie'] } } }, 'cache.varies may not name cookie'],
    [{ '/x': { cache: { varies: ['Authorization'] } } }, 'cache.varies may not name authorization'],
    [{ '/x': { cache: { varies: ['bad header'] } } }, 'is not a header name or cookie:name'],
    [{ '/x': { cache: { query: 'q' } } }, 'cache.query must be a list of query parameter names'],
    [{ '/x': { cache: { query: ['a b'] } } }, 'cache.query must be a list of query parameter names'],
    [{ '/x/**': { prerender: true } }, 'prerender: true needs a plain path'],
    [{ '/x': { ssr: 'no' } }, 'ssr must be true or false'],
  ])('refuses a bad cache rule %j with one line naming it', (input, message) => {
    expect(() => normalizeRouteRules(input as never)).toThrow(RouteRuleError);
    expect(() => normalizeRouteRules(input as never)).toThrow(message);
    expect(() => normalizeRouteRules(input as never)).toThrow('route rule "/x');
  });

  it("compiles the site's cache rules: home and categories cached, /login not, /about prerendered", () => {
    const m = createRouteRulesMatcher(normalizeRouteRules(siteRules));
    expect(m.match('/').cache).toMatchObject({ maxAge: 600 });
    expect(m.match('/category/git').cache).toMatchObject({ maxAge: null });
    expect(m.match('/login').cache).toBe(false);
    expect(m.match('/about').prerender).toBe(true);
  });
});

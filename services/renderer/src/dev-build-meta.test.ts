import { describe, expect, it } from 'vitest';
import { normalizeRouteRules } from '@tern/shared/route-rules/route-rules';
import { devRouteRules } from './dev-build-meta.js';

describe('the route rules of npm run dev', () => {
  const rules = devRouteRules(
    normalizeRouteRules({
      '/_nuxt/**': { headers: { 'cache-control': 'public, max-age=31536000, immutable', 'x-kept': '1' } },
      '/': { swr: 600 },
      '/category/**': { isr: true, headers: { 'x-cat': '1' } },
      '/about': { prerender: true },
      '/saved': { ssr: false, robots: false },
      '/home': { redirect: '/' },
    }),
    '/_nuxt/',
  );

  it('never cache: no render-cache rule, no prerender, no immutable assets (an edit must show)', () => {
    expect(rules['/']).toEqual({});
    expect(rules['/category/**']).toEqual({ headers: { 'x-cat': '1' } });
    expect(rules['/about']).toEqual({});
    expect(rules['/_nuxt/**']).toEqual({ headers: { 'x-kept': '1' } });
  });

  it('keep what can be tried in development: redirects, robots, ssr: false', () => {
    expect(rules['/saved']).toEqual({ ssr: false, robots: false });
    expect(rules['/home']!.redirect).toEqual({ to: '/', statusCode: 307 });
  });
});

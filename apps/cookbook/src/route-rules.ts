/**
 * The cookbook's route rules, compiled by the build into its meta. The gateway applies them
 * before any upstream sees a request; the browser applies the redirects on client navigation
 * with the same matcher.
 */
import type { RouteRulesInput } from '@tern/shared/route-rules/route-rules';

export const routeRules: RouteRulesInput = {
  '/home': { redirect: { to: '/', statusCode: 301 } },
  '/categories/**': { redirect: { to: '/category/**', statusCode: 308 } },
  '/source': { redirect: { to: 'https://example.com/source', statusCode: 302 } },
  '/_nuxt/**': { headers: { 'cache-control': 'public, max-age=31536000, immutable' } },
  // Home and categories change only with a build (or a purge): answered from the render cache.
  // Signed-in visitors get the same entries with their personal parts filled in (app/personal.tsx).
  // `/` refreshes behind the answer every 10 min.
  '/': { swr: 600 },
  '/category/**': { isr: true },
  // A recipe's and a tag's page: the same, cached until the next build.
  '/recipes/**': { isr: true },
  '/tags/**': { isr: true },
  // One entry per canonical query, for the build's life; the page itself marks `private` every
  // query outside the build's own words or without results, so no client can add entries at will
  // (docs/decisions/search.md). Other query parameters never reach the key nor the render.
  '/search': { cache: { maxAge: 86_400, staleMaxAge: 0, query: ['q'] } },
  '/login': { robots: false, cache: false },
  // The same for everyone and changed only by a build: rendered once, at build time.
  '/about': { prerender: true },
  // Different for every visitor (and for signed-in visitors only): rendered for each request,
  // never cached. Server-rendered like the rest (docs/decisions/javascript-budget.md).
  '/saved': { robots: false, cache: false },
};

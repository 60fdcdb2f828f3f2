/**
 * The build meta of a development run: the route rules of the site's definition as the build would
 * compile them, minus what would keep an edit from showing: Vite serves unhashed sources under
 * the assets prefix, so a long cache lifetime there would pin stale modules in the browser; and
 * the render cache (swr / isr / cache) would answer a page or payload from before the edit.
 * Redirects, headers, robots and `ssr: false` stay, so they can be tried in development.
 */
import { createHash } from 'node:crypto';
import type { BuildMeta } from '@tern/shared/build-store/types';
import { normalizeRouteRules, type CompiledRouteRules } from '@tern/shared/route-rules/route-rules';
import type { SiteDefinition } from '@tern/site/define-site';
import { COLOR_MODE_PAGE_VARY } from '@tern/runtime/shared/color-mode';

export function devRouteRules(rules: CompiledRouteRules, assetsPrefix: string): CompiledRouteRules {
  return Object.fromEntries(
    Object.entries(rules).map(([pattern, { cache: _cache, prerender: _prerender, ...rule }]) => {
      if (!pattern.startsWith(assetsPrefix) || !rule.headers) return [pattern, rule];
      const headers = Object.fromEntries(Object.entries(rule.headers).filter(([name]) => name.toLowerCase() !== 'cache-control'));
      return [pattern, { ...rule, headers }];
    }),
  );
}

export function devBuildMeta(
  site: Pick<SiteDefinition, 'routeRules' | 'sessionCookie'>,
  assetsPrefix: string,
  now = Date.now(),
): BuildMeta {
  const matcher = devRouteRules(normalizeRouteRules(site.routeRules ?? {}), assetsPrefix);
  // A new id per start: the browser's freshness check then reloads onto the restarted server.
  const id = `dev-${createHash('sha256').update(JSON.stringify(matcher)).update(String(now)).digest('hex').slice(0, 12)}`;
  const pageVaries = [COLOR_MODE_PAGE_VARY];
  return { id, timestamp: now, matcher, prerendered: [], pageVaries, ...(site.sessionCookie ? { sessionCookie: site.sessionCookie } : {}) };
}

/**
 * React Router starts uninitialised (and renders a fallback, so hydration mismatches) when a
 * route of the first location is still lazy. Resolve those before hydrating, as its docs advise.
 */
import { matchRoutes, type Location, type RouteObject } from 'react-router';

export async function resolveLazyMatches(routes: RouteObject[], location: Pick<Location, 'pathname'>): Promise<void> {
  const matches = matchRoutes(routes, location) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      const resolved = await route.lazy();
      Object.assign(route, { ...resolved, lazy: undefined });
    }),
  );
}

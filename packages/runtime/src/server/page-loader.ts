/**
 * The loader every page route gets on the server: validate, then the route middleware,
 * then its own loader. A page without a loader still answers `null` so hydration never reloads it.
 */
import type { LoaderFunctionArgs } from 'react-router';
import { resolveMiddleware, runMiddleware, type MiddlewareRegistry } from '../shared/middleware.js';
import type { PageModule } from '../shared/page-module.js';
import type { RouteTarget } from '../shared/route-target.js';
import { runValidate } from '../shared/validate.js';

export function routeTargetOf(args: LoaderFunctionArgs): RouteTarget {
  const url = new URL(args.request.url);
  return { fullPath: `${url.pathname}${url.search}`, path: url.pathname, params: args.params };
}

export type PageLoaderRunner = (page: PageModule, args: LoaderFunctionArgs) => Promise<unknown>;

/** The server's page loader, for the app whose middleware is `registry`. */
export function createPageLoader(registry: MiddlewareRegistry): PageLoaderRunner {
  return async (page, args) => {
    const to = routeTargetOf(args);
    await runValidate(page.validate, to);
    // Global, named and inline middleware, as the browser runs them before a client navigation.
    await runMiddleware(resolveMiddleware(registry, page.middleware), to, {
      side: 'server',
      request: args.request,
      context: args.context,
    });
    const data = page.loader ? await page.loader(args) : null;
    return data === undefined ? null : data;
  };
}

/**
 * The loader every page route gets on the server: validate, then the route middleware,
 * then its own loader. A page without a loader still answers `null` so hydration never reloads it.
 */
import type { LoaderFunctionArgs } from 'react-router';
import { middlewareRegistry } from '../app/middleware.js';
import { resolveMiddleware, runMiddleware } from './middleware.js';
import type { PageModule, RouteTarget } from './page-module.js';
import { runValidate } from './validate.js';

export function routeTargetOf(args: LoaderFunctionArgs): RouteTarget {
  const url = new URL(args.request.url);
  return { fullPath: `${url.pathname}${url.search}`, path: url.pathname, params: args.params };
}

export async function runPageLoader(page: PageModule, args: LoaderFunctionArgs): Promise<unknown> {
  const to = routeTargetOf(args);
  await runValidate(page.validate, to);
  // Global, named and inline middleware, as the browser runs them before a client navigation.
  await runMiddleware(resolveMiddleware(middlewareRegistry, page.middleware), to, {
    side: 'server',
    request: args.request,
    context: args.context,
  });
  const data = page.loader ? await page.loader(args) : null;
  return data === undefined ? null : data;
}

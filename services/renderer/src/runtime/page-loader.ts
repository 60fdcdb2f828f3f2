/**
 * The loader every page route gets on the server: validate, then the page's inline middleware,
 * then its own loader. A page without a loader still answers `null` so hydration never reloads it.
 */
import type { LoaderFunctionArgs } from 'react-router';
import type { PageModule, RouteTarget } from './page-module.js';
import { runValidate } from './validate.js';

export function routeTargetOf(args: LoaderFunctionArgs): RouteTarget {
  const url = new URL(args.request.url);
  return { fullPath: `${url.pathname}${url.search}`, path: url.pathname, params: args.params };
}

export async function runPageLoader(page: PageModule, args: LoaderFunctionArgs): Promise<unknown> {
  const to = routeTargetOf(args);
  await runValidate(page.validate, to);
  const middleware = page.middleware === undefined ? [] : [page.middleware].flat();
  for (const run of middleware) await run(to, args);
  const data = page.loader ? await page.loader(args) : null;
  return data === undefined ? null : data;
}

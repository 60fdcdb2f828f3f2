/**
 * The route tree, from the files in ./pages (Nuxt's file routing): every page is loaded lazily
 * in its own chunk. Server and browser share the tree and differ only in how a page's data is
 * loaded: the server runs the page's loader, the browser fetches the page's payload.
 */
import type { LoaderFunction, RouteObject } from 'react-router';
import { ErrorPage } from './error-page.js';
import { PageHost, Root } from './root.js';
import { pageFilesFrom, pageHandleOf, type PageFile, type PageModule } from '../runtime/shared/page-module.js';
import type { AppDefinition } from '../runtime/shared/app-definition.js';
import { middlewareRegistry } from './middleware.js';
import { pageNotFound } from '../runtime/shared/validate.js';
import { PATHS_ARE_CASE_SENSITIVE } from '../../../../lib/canonical-path.js';

export const pageFiles: PageFile[] = pageFilesFrom(import.meta.glob<PageModule>('./pages/**/*.tsx'));

export const ROOT_ROUTE_ID = 'root';
export const APP_ROUTE_ID = 'app';
export const NOT_FOUND_ROUTE_ID = 'not-found';

/** A path with no page: the 404 of docs/spec.md §2, raised as the loader of a catch-all route. */
function ShellFallback() {
  return <div aria-busy="true" className="min-h-screen" />;
}

/** Never shown: its loader always throws, so the app route's error page renders instead. */
function NotFound() {
  return null;
}

const notFoundLoader: LoaderFunction = ({ request }) => {
  const url = new URL(request.url);
  throw pageNotFound(`${url.pathname}${url.search}`);
};

export function createRoutes(pageLoader: (page: PageFile) => LoaderFunction): RouteObject[] {
  const pages: RouteObject[] = pageFiles.map((page) => ({
    id: page.id,
    ...(page.path === '/' ? { index: true } : { path: page.path, caseSensitive: PATHS_ARE_CASE_SENSITIVE }),
    Component: PageHost,
    loader: pageLoader(page),
    lazy: async () => ({ handle: pageHandleOf(page, await page.load()) }),
  }));
  return [
    {
      id: ROOT_ROUTE_ID,
      path: '/',
      Component: Root,
      ErrorBoundary: ErrorPage,
      // The `ssr: false` shell: nothing to show until the page's payload is in.
      HydrateFallback: ShellFallback,
      children: [
        {
          id: APP_ROUTE_ID,
          ErrorBoundary: ErrorPage,
          children: [...pages, { id: NOT_FOUND_ROUTE_ID, path: '*', Component: NotFound, loader: notFoundLoader }],
        },
      ],
    },
  ];
}

/** The page file a route id belongs to. */
export function pageFileOf(routeId: string): PageFile | undefined {
  return pageFiles.find((page) => page.id === routeId);
}

/** The app as the runtime sees it: the entries hand this in. */
export const appDefinition: AppDefinition = {
  pageFileOf,
  notFoundRouteId: NOT_FOUND_ROUTE_ID,
  middleware: middlewareRegistry,
};

/**
 * The route tree of a site's app, from its page files (Nuxt's file routing): every page is loaded
 * lazily in its own chunk. Server and browser share the tree and differ only in how a page's data
 * is loaded: the server runs the page's loader, the browser fetches the page's payload.
 */
import type { LoaderFunction, RouteObject } from 'react-router';
import { createErrorPage, ErrorPage } from './error-page.js';
import { createPageHost, Root } from './root.js';
import { pageFilesFrom, pageHandleOf, type PageFile } from '../shared/page-module.js';
import type { AppDefinition } from '../shared/app-definition.js';
import { pageNotFound } from '../shared/validate.js';
import type { SiteApp } from '@tern/site/define-site-app';
import { PATHS_ARE_CASE_SENSITIVE } from '@tern/shared/http/canonical-path';

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

export interface AppRoutes {
  pageFiles: PageFile[];
  /** The tree, with each page's data loaded the way `pageLoader` says. */
  createRoutes(pageLoader: (page: PageFile) => LoaderFunction): RouteObject[];
  /** The app as the runtime sees it. */
  definition: AppDefinition;
}

/** `appDir`: the app module's folder relative to the renderer's root, the prefix of the manifest's page keys. */
export function createAppRoutes(site: SiteApp, appDir: string): AppRoutes {
  const pageFiles = pageFilesFrom(site.pages, appDir);
  const PageHost = createPageHost(site.layouts);
  const SiteErrorPage = createErrorPage(site.errorPage);
  const createRoutes = (pageLoader: (page: PageFile) => LoaderFunction): RouteObject[] => {
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
            ErrorBoundary: SiteErrorPage,
            children: [...pages, { id: NOT_FOUND_ROUTE_ID, path: '*', Component: NotFound, loader: notFoundLoader }],
          },
        ],
      },
    ];
  };
  const middleware = { global: site.middleware?.global ?? [], named: site.middleware?.named ?? {} };
  return {
    pageFiles,
    createRoutes,
    definition: {
      pageFileOf: (routeId) => pageFiles.find((page) => page.id === routeId),
      notFoundRouteId: NOT_FOUND_ROUTE_ID,
      middleware,
    },
  };
}

/**
 * The top of the React tree: the app shell (toasts, tooltips, colour mode, docs/spec.md §2) around the
 * router outlet, and the page host that puts each page in its layout and keeps its head current.
 */
import { useEffect } from 'react';
import { Outlet, ScrollRestoration, useMatches, type UIMatch } from 'react-router';
import { AppShell } from '@tern/ui/app-shell';
import { layoutNamed } from './layouts.js';
import { applyHead, resolveHead } from '../shared/head.js';
import type { LayoutComponent } from '@tern/site/define-site-app';
import { siteHead } from './site-head.js';
import { markHydrated } from '../shared/hydration.js';
import { RouteAnnouncer } from '../shared/route-announcer.js';
import { publicOrigin } from '../shared/app-config.js';
import { isPageHandle, type PageHandle } from '../shared/page-module.js';

/** The deepest match that is a loaded page, if any. */
export function pageMatchOf(matches: readonly UIMatch[]): (UIMatch & { handle: PageHandle }) | undefined {
  const last = matches.at(-1);
  return last && isPageHandle(last.handle) ? (last as UIMatch & { handle: PageHandle }) : undefined;
}

export function Root() {
  const page = pageMatchOf(useMatches());
  useEffect(markHydrated, []);
  return (
    <AppShell forcedColorMode={page?.handle.page.colorMode ?? null}>
      <Outlet />
      <ScrollRestoration />
      <RouteAnnouncer />
    </AppShell>
  );
}

/** Every page route renders this: the same component, so a shared layout stays mounted across pages. */
export function createPageHost(layouts: Record<string, LayoutComponent>) {
  return function PageHost() {
    const match = pageMatchOf(useMatches());
    const page = match?.handle.page;
    useEffect(() => {
      if (!match || !page) return;
      const context = { data: match.data, params: match.params, path: match.pathname };
      applyHead(document, resolveHead(page.head, context, publicOrigin(), siteHead));
    }, [match, page]);
    if (!page) return null;
    const Layout = layoutNamed(layouts, page.layout);
    const Page = page.Component;
    return Layout ? (
      <Layout>
        <Page />
      </Layout>
    ) : (
      <Page />
    );
  };
}

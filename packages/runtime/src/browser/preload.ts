/**
 * Link preloading: when an internal link is hovered, focused or scrolled into view, the chunk of
 * the page it leads to and that page's payload are fetched ahead, through one queue of at most
 * 4 in flight, never on save-data or 2g connections. It watches every `<a href>` in the app (so
 * every Link is covered, whoever wrote it); `data-no-preload` on a link opts it out.
 */
import { matchRoutes, type RouteObject } from 'react-router';
import type { AppDefinition } from '../shared/app-definition.js';
import { loadedManifest, connectionOf } from './app-manifest.js';
import { isBuildOutdated } from './build-freshness.js';
import { asChunkPreload } from './chunk-reload.js';
import { preloadPayload } from './payload-fetch.js';
import { createPreloadQueue, preloadAllowed, type PreloadQueue } from './preload-queue.js';

export const NO_PRELOAD_ATTRIBUTE = 'data-no-preload';
/** An idle period is left when less than this remains of it. */
const IDLE_SLICE_RESERVE_MS = 4;

export interface RoutePreloader {
  /** Preloads the page behind `href`, if it is an internal page and preloading is allowed. */
  preload(href: string): void;
  readonly queue: PreloadQueue;
}

export function createRoutePreloader(
  routes: RouteObject[],
  pageFileOf: AppDefinition['pageFileOf'],
  queue: PreloadQueue = createPreloadQueue(),
): RoutePreloader {
  return {
    queue,
    preload(href) {
      if (!preloadAllowed(connectionOf()) || isBuildOutdated()) return;
      const url = new URL(href, window.location.href);
      if (url.origin !== window.location.origin) return;
      if (url.pathname === window.location.pathname && url.search === window.location.search) return;
      // A path a route rule redirects is left to the navigation, which follows the rule.
      if (loadedManifest()?.matcher.match(url.pathname).redirect) return;
      const page = (matchRoutes(routes, url.pathname) ?? []).map((m) => pageFileOf(m.route.id ?? '')).find(Boolean);
      if (!page) return;
      queue.add(`chunk:${page.file}`, () => asChunkPreload(page.load));
      queue.add(`payload:${url.pathname}${url.search}`, () => preloadPayload(url.pathname, url.search));
    },
  };
}

function internalLink(target: EventTarget | null): HTMLAnchorElement | null {
  const link = target instanceof Element ? target.closest('a[href]') : null;
  if (!(link instanceof HTMLAnchorElement) || link.hasAttribute(NO_PRELOAD_ATTRIBUTE) || link.hasAttribute('download')) return null;
  if (link.target && link.target !== '_self') return null;
  return link.origin === window.location.origin ? link : null;
}

/**
 * Watches `root`: hover and focus preload at once; links in view preload in the browser's idle
 * periods after hydration. Returns a function that stops watching.
 */
export function watchLinks(root: HTMLElement, preloader: RoutePreloader): () => void {
  const onIntent = (event: Event) => {
    const link = internalLink(event.target);
    if (link) preloader.preload(link.href);
  };
  root.addEventListener('pointerover', onIntent, { passive: true });
  root.addEventListener('focusin', onIntent);

  // Links in view are preloaded a few at a time in idle periods, not all in the observer's
  // callback: a long page shows dozens, and each one started means route matching, a fetch and an
  // import on the main thread, right when the page has just hydrated and the visitor may act.
  const idle = window.requestIdleCallback ?? ((run: (deadline?: IdleDeadline) => void) => window.setTimeout(run, 1));
  const inView: string[] = [];
  let draining = false;
  let stopped = false;
  const drain = (deadline?: IdleDeadline) => {
    if (stopped) return;
    do preloader.preload(inView.shift()!);
    while (inView.length > 0 && deadline !== undefined && deadline.timeRemaining() > IDLE_SLICE_RESERVE_MS);
    if (inView.length > 0) idle(drain);
    else draining = false;
  };
  const visible = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      visible.unobserve(entry.target);
      const link = internalLink(entry.target);
      if (link) inView.push(link.href);
    }
    if (inView.length > 0 && !draining) {
      draining = true;
      idle(drain);
    }
  });
  const observed = new WeakSet<Element>();
  const observeAll = () => {
    for (const link of root.querySelectorAll('a[href]')) {
      if (observed.has(link)) continue;
      observed.add(link);
      visible.observe(link);
    }
  };
  const mutations = new MutationObserver(observeAll);
  idle(() => {
    if (stopped) return;
    observeAll();
    mutations.observe(root, { childList: true, subtree: true });
  });
  return () => {
    stopped = true;
    root.removeEventListener('pointerover', onIntent);
    root.removeEventListener('focusin', onIntent);
    visible.disconnect();
    mutations.disconnect();
  };
}

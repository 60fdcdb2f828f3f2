/**
 * Scroll positions per history entry, kept in sessionStorage, so that a full page load standing in
 * for Back/Forward (a newer build, docs/spec.md §4; a chunk reload, §8) lands where the visitor
 * left that entry. React Router restores positions on client navigations only: on a hydrating
 * load it leaves the scroll alone, and with its `scrollRestoration = 'manual'` the browser keeps
 * the offset of the page that was showing when the reload started. Browser-only.
 *
 * An entry's position is written when a navigation leaves it and when the page hides while no
 * navigation is pending (a pending one means the address already names the next entry). After
 * a reload or a Back/Forward load, the position of the entry shown is restored once the page is
 * tall enough, unless the visitor scrolls or types first.
 */
import type { DataRouter as Router } from 'react-router';

export const SCROLL_MEMORY_KEY = 'platform:scroll';
const KEPT_MAX = 50;
/** How long a restore waits for late content (lazy parts, the `ssr: false` shell's data). */
const RESTORE_WAIT_MS = 5000;

type Positions = Record<string, number>;

function read(): Positions {
  try {
    const value = JSON.parse(sessionStorage.getItem(SCROLL_MEMORY_KEY) ?? '{}') as unknown;
    return value && typeof value === 'object' ? (value as Positions) : {};
  } catch {
    return {};
  }
}

/** Stores the page's scroll offset for the history entry `key` (newest last, at most 50 kept). */
export function rememberScroll(key: string): void {
  const positions = read();
  delete positions[key];
  positions[key] = Math.round(window.scrollY);
  const keys = Object.keys(positions);
  for (const old of keys.slice(0, Math.max(0, keys.length - KEPT_MAX))) delete positions[old];
  try {
    sessionStorage.setItem(SCROLL_MEMORY_KEY, JSON.stringify(positions));
  } catch {
    // Storage full or refused: the page simply loads at the top, as without this.
  }
}

export function rememberedScroll(key: string): number | undefined {
  const y = read()[key];
  return typeof y === 'number' && Number.isFinite(y) ? y : undefined;
}

/** Remembers the position of every entry the router leaves, and of the shown one when the page hides. */
export function keepScrollPositions(router: Router): () => void {
  let leaving: unknown = null;
  const unsubscribe = router.subscribe((state) => {
    // The first update of a navigation: the old page is still rendered, at its offset.
    if (state.navigation.state !== 'idle' && leaving !== state.navigation.location) {
      leaving = state.navigation.location;
      rememberScroll(state.location.key);
    } else if (state.navigation.state === 'idle') leaving = null;
  });
  const onPageHide = () => {
    if (router.state.navigation.state === 'idle') rememberScroll(router.state.location.key);
  };
  window.addEventListener('pagehide', onPageHide);
  return () => {
    unsubscribe();
    window.removeEventListener('pagehide', onPageHide);
  };
}

/** Was this document loaded by a reload or by Back/Forward (not by following a link)? */
function loadedFromHistory(): boolean {
  const entry = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
  return entry?.type === 'reload' || entry?.type === 'back_forward';
}

/** After hydration: back to where the visitor left this entry, as soon as the page is tall enough. */
export function restoreScrollAfterLoad(key: string): void {
  if (!loadedFromHistory()) return;
  const y = rememberedScroll(key);
  if (y === undefined) return;
  const reachable = () => document.documentElement.scrollHeight - window.innerHeight >= y;
  const stop = () => {
    observer?.disconnect();
    clearTimeout(timer);
    for (const type of INPUT_EVENTS) window.removeEventListener(type, stop);
  };
  const attempt = () => {
    if (!reachable()) return;
    stop();
    window.scrollTo({ top: y, left: 0, behavior: 'instant' });
  };
  const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(attempt) : null;
  const timer = setTimeout(stop, RESTORE_WAIT_MS);
  // The visitor moved first: leave the page where they put it.
  for (const type of INPUT_EVENTS) window.addEventListener(type, stop, { once: true, passive: true });
  observer?.observe(document.body);
  attempt();
}

const INPUT_EVENTS = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;

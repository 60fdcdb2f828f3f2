/**
 * Search from every page with two listeners (loaded once the page is idle, app.ts): the first focus in a
 * search box (search-box.ts: the header's, the 404 page's, the search page's)
 * or the shortcut (`/`, Ctrl+K or ⌘K) imports the live search (search/live-search.ts, a chunk of
 * its own, with MiniSearch and the index after it). Until then, and without JavaScript, every form
 * is a plain GET to /search.
 */
import { SEARCH_INPUT_SELECTOR } from './search-box.js';

function typingIn(target: EventTarget | null): boolean {
  const element = target as Partial<HTMLElement> | null;
  return Boolean(element && (element.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(element.tagName ?? '')));
}

/** `/` outside a field, or Ctrl+K / ⌘K anywhere. */
export function isSearchShortcut(event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'target'>): boolean {
  if (event.key === '/' && !event.ctrlKey && !event.metaKey && !event.altKey) return !typingIn(event.target);
  return (event.key === 'k' || event.key === 'K') && (event.ctrlKey || event.metaKey) && !event.altKey;
}

const liveSearch = () => import('./live-search.js');

/** Installs the listeners once (the browser's start-up, app.ts). */
export function installSearchEnhancer(doc: Document = document): void {
  const attach = (target: EventTarget | null) => {
    if (target instanceof HTMLInputElement && target.matches(SEARCH_INPUT_SELECTOR)) {
      void liveSearch().then(
        (m) => m.attachLiveSearch(target),
        () => undefined,
      );
    }
  };
  doc.addEventListener('focusin', (event) => attach(event.target));
  // A box focused before the app started (the page is plain HTML until then).
  attach(doc.activeElement);
  doc.addEventListener('keydown', (event) => {
    if (event.defaultPrevented || !isSearchShortcut(event)) return;
    event.preventDefault();
    void liveSearch().then(
      (m) => m.focusSearch(doc),
      // The chunk did not load: the search page still works.
      () => doc.defaultView?.location.assign('/search'),
    );
  });
}

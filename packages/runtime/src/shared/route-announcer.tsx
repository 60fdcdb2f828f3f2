/**
 * After each client navigation, what a full page load gives a screen reader or keyboard user for
 * free: the new page's title is announced (a polite live region, as Nuxt's route announcer) and
 * focus moves to the page's main heading, or to the hash target when the address has one.
 * Nothing happens on the first load: the browser already announced the document.
 */
import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';

/** Makes `element` focusable by script only (not in the tab order), then focuses it without scrolling. */
function focusWithoutScroll(element: HTMLElement): void {
  if (element.tabIndex < 0 && !element.hasAttribute('tabindex')) element.setAttribute('tabindex', '-1');
  element.focus({ preventScroll: true });
}

/** The hash target, else the page's main heading, else <main>. */
export function navigationFocusTarget(doc: Document, hash: string): HTMLElement | null {
  if (hash.length > 1) {
    const id = decodeURIComponent(hash.slice(1));
    const target = doc.getElementById(id);
    if (target) return target;
  }
  return doc.querySelector<HTMLElement>('main h1') ?? doc.querySelector<HTMLElement>('h1') ?? doc.querySelector<HTMLElement>('main');
}

export function RouteAnnouncer() {
  const location = useLocation();
  const [message, setMessage] = useState('');
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    // After the page's own effects (its head, its title) have run.
    const frame = requestAnimationFrame(() => {
      setMessage(document.title);
      const target = navigationFocusTarget(document, location.hash);
      if (target) focusWithoutScroll(target);
    });
    return () => cancelAnimationFrame(frame);
  }, [location.key, location.hash]);
  return (
    <div aria-live="polite" aria-atomic="true" data-route-announcer className="sr-only">
      {message}
    </div>
  );
}

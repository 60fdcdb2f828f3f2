/** `/` or Ctrl+K (⌘K) focuses the search box, unless the visitor is typing in a field already. */
import { useEffect, type RefObject } from 'react';

function typingIn(target: EventTarget | null): boolean {
  const element = target as Partial<HTMLElement> | null;
  return Boolean(element && (element.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(element.tagName ?? '')));
}

export function isSearchShortcut(event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'target'>): boolean {
  if (event.key === '/' && !event.ctrlKey && !event.metaKey && !event.altKey) return !typingIn(event.target);
  return (event.key === 'k' || event.key === 'K') && (event.ctrlKey || event.metaKey) && !event.altKey;
}

export function useSearchShortcut(input: RefObject<HTMLInputElement | null>): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!input.current || !isSearchShortcut(event)) return;
      event.preventDefault();
      input.current.focus();
      input.current.select();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [input]);
}

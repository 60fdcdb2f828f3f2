/**
 * Marks the page once React has hydrated it: `data-hydrated` on <html> (outside React's tree, so
 * it cannot cause a mismatch) and an `app:hydrated` event, for tests and the client runtime.
 */
export const HYDRATED_ATTRIBUTE = 'data-hydrated';
export const HYDRATED_EVENT = 'app:hydrated';

export function markHydrated(): void {
  if (document.documentElement.hasAttribute(HYDRATED_ATTRIBUTE)) return;
  document.documentElement.setAttribute(HYDRATED_ATTRIBUTE, '');
  window.dispatchEvent(new Event(HYDRATED_EVENT));
}

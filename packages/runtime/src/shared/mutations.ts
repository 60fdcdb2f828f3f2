/**
 * A signal that server state changed (a sign-in, a save): whatever the browser fetched ahead,
 * such as preloaded payloads, may now be stale. Browser-safe and dependency-free.
 */
type Listener = () => void;
const listeners = new Set<Listener>();

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** True for methods that may change server state. */
export function isMutation(method: string | undefined): boolean {
  return !SAFE_METHODS.has((method ?? 'GET').toUpperCase());
}

export function onMutation(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function notifyMutation(): void {
  for (const listener of listeners) listener();
}

/**
 * Recovery from chunk and stylesheet failures (docs/spec.md §8): a failed lazy import, or Vite's
 * `vite:preloadError` ('Unable to preload CSS' included), loads the target path again, once.
 * A sessionStorage marker `{ path, expires }` (RELOAD_MARKER_KEY, 10 s) stops a second reload of
 * the same path, and that failure shows the error page instead of looping. Browser-safe.
 */
import { CHUNK_LOAD_ERROR, RELOAD_GUARD_MS, RELOAD_MARKER_KEY } from '../shared/reload-guard.js';
import { loadWholePage } from './full-load.js';

export interface ReloadMarker {
  path: string;
  expires: number;
}

type StorageLike = Pick<Storage, 'getItem' | 'setItem'>;

function readMarker(storage: StorageLike): ReloadMarker | null {
  try {
    const marker = JSON.parse(storage.getItem(RELOAD_MARKER_KEY) ?? 'null') as Partial<ReloadMarker> | null;
    return typeof marker?.path === 'string' && typeof marker.expires === 'number' ? (marker as ReloadMarker) : null;
  } catch {
    return null;
  }
}

/**
 * May `path` be reloaded now? Yes unless the marker says it was, less than 10 s ago; a yes
 * writes the marker first. If the marker cannot be written there is no guard, so no reload.
 */
export function claimReload(storage: StorageLike | null, path: string, now = Date.now(), ttlMs = RELOAD_GUARD_MS): boolean {
  if (!storage) return false;
  const marker = readMarker(storage);
  if (marker && marker.path === path && marker.expires > now) return false;
  try {
    storage.setItem(RELOAD_MARKER_KEY, JSON.stringify({ path, expires: now + ttlMs } satisfies ReloadMarker));
    return true;
  } catch {
    return false;
  }
}

const seen = new WeakSet<object>();

/** An error from loading code or a stylesheet (not from the code itself). */
export function isChunkLoadError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  if (seen.has(error)) return true;
  const message = (error as { message?: unknown }).message;
  return typeof message === 'string' && CHUNK_LOAD_ERROR.test(message);
}

function sessionStore(): StorageLike | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

let reloadingTo: string | null = null;
let preloadsInFlight = 0;

/** Wraps a chunk preload: a preload that fails is not the visitor's problem, so no reload for it. */
export function asChunkPreload<T>(load: () => Promise<T>): Promise<T> {
  preloadsInFlight += 1;
  return load().finally(() => {
    preloadsInFlight -= 1;
  });
}

export function chunkPreloadsInFlight(): number {
  return preloadsInFlight;
}

/**
 * The one decision for a chunk failure on the way to `path` (pathname, query and hash):
 * 'reloading' (the page is going away: show nothing new) or 'blocked' (show the error).
 */
export function recoverFromChunkError(path: string): 'reloading' | 'blocked' {
  if (reloadingTo !== null) return 'reloading';
  if (!claimReload(sessionStore(), path)) return 'blocked';
  reloadingTo = path;
  loadWholePage(path);
  return 'reloading';
}

interface PreloadErrorEvent extends Event {
  payload?: unknown;
}

/**
 * Vite's preload helper dispatches `vite:preloadError` before rethrowing. Remember the error (the
 * navigation that awaits it recognises it) and reload the target; a blocked reload lets the
 * error through to the error page. `targetPath` answers null when no reload is wanted.
 */
export function installPreloadErrorListener(targetPath: () => string | null): () => void {
  const listener = (event: Event) => {
    const error = (event as PreloadErrorEvent).payload;
    if (typeof error === 'object' && error !== null) seen.add(error);
    const path = targetPath();
    if (path !== null) recoverFromChunkError(path);
  };
  window.addEventListener('vite:preloadError', listener);
  return () => window.removeEventListener('vite:preloadError', listener);
}

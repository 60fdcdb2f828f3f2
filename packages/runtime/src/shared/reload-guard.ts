/**
 * The one reload after a chunk failure (docs/spec.md §8-9), as both recoveries know it: the
 * browser runtime's (runtime/client/chunk-reload.ts) and the inline bootstrap's, which has to act
 * before any module has loaded (server/hydrate-after-paint.ts). Browser-safe.
 */

/** A reload of the same path within this time is not tried again. */
export const RELOAD_GUARD_MS = 10_000;
/** sessionStorage key of the marker `{ path, expires }`. */
export const RELOAD_MARKER_KEY = 'platform:reload';

/** The messages browsers give a module or stylesheet that did not load (not one that threw). */
export const CHUNK_LOAD_ERROR =
  /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS|Failed to load module script/i;

/**
 * Every constant of docs/spec.md §9, under its name there. Both the servers and the browser import
 * this file, so it must stay free of Node imports.
 */
export const BUILD_CHECK_INTERVAL_MS = 3_600_000;
export const MANIFEST_PREFETCH_DELAY_MS = 1000;
export const MANIFEST_PREFETCH_SKIPPED_ON = 'slow-2g';
export const RELOAD_GUARD_MS = 10_000;
export const MAX_CONCURRENT_ROUTE_PRELOADS = 4;
export const ICON_FETCH_TIMEOUT_MS = 1500;
export const TOAST_DEFAULT_DURATION_MS = 5000;
export const TOASTS_KEPT_MAX = 5;
export const TOAST_REMOVE_DELAY_MS = 200;
export const TOAST_SWIPE_THRESHOLD_PX = 50;
export const TOOLTIP_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;
export const TOAST_VIEWPORT_HOTKEY = 'F8';
export const TOASTER_DEFAULT_POSITION = 'bottom-right';
export const IMAGE_BREAKPOINTS = {
  xs: 320,
  sm: 640,
  md: 768,
  lg: 1024,
  xl: 1280,
  '2xl': 1536,
} as const;
export const IMAGE_DENSITIES = [1, 2] as const;
export const DEFAULT_IMAGE_FORMAT = 'webp';
export const CLOSE_ACTION_LABEL = 'Close';
export const ASYNC_COMPONENT_DELAY_MS = 200;

/** docs/spec.md §7: the statuses the HTTP client retries on, and its default retry counts. */
export const RETRY_STATUS_CODES = [408, 409, 425, 429, 500, 502, 503, 504] as const;
export const NO_RETRY_METHODS = ['PATCH', 'POST', 'PUT', 'DELETE'] as const;
export const DEFAULT_RETRIES = 1;

/** docs/spec.md §4: where the colour-mode preference is kept. */
export const COLOR_MODE_STORAGE_KEY = 'color-mode';
/** docs/spec.md §8: the session-storage marker that guards chunk-error reloads. */
export const RELOAD_MARKER_KEY = 'cookbook:reload';

/** The request header that ties log lines of one request together across services. */
export const REQUEST_ID_HEADER = 'x-request-id';
/** Sent with HTML and payloads so a client can tell it is on an old build. */
export const BUILD_ID_HEADER = 'x-build-id';

/** The session cookie: set by the renderer at sign-in; the gateway never caches a request that has it. */
export const SESSION_COOKIE = 'cookbook_session';

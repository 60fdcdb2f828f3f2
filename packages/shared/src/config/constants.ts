/**
 * The constants two or more services share (docs/spec.md §9 names). The renderer's own live beside
 * the behaviour that uses them. Servers and the browser import this file: no Node imports.
 */
/** The widths the image service serves and the srcset builder lists (docs/spec.md §9). */
export const IMAGE_BREAKPOINTS = {
  xs: 320,
  sm: 640,
  md: 768,
  lg: 1024,
  xl: 1280,
  '2xl': 1536,
} as const;
export const IMAGE_DENSITIES = [1, 2] as const;

/** docs/spec.md §4: where the colour-mode preference is kept. */
export const COLOR_MODE_STORAGE_KEY = 'color-mode';

/** The request header that ties log lines of one request together across services. */
export const REQUEST_ID_HEADER = 'x-request-id';
/** Sent with HTML and payloads so a client can tell it is on an old build. */
export const BUILD_ID_HEADER = 'x-build-id';

/**
 * On a page or payload answer: `parts`, the answer is the same for every visitor but its personal
 * parts, so the gateway may answer signed-in visitors from the shared cache and splice in their
 * parts (docs/decisions/personal-holes.md).
 */
export const PERSONAL_HEADER = 'x-personal';

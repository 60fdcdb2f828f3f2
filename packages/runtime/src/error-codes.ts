/**
 * The renderer's error codes the browser can raise too: pages, route middleware, navigation and the
 * HTTP client (runtime). Beside the folders rather than in server/, because the runtime and the
 * app run in the browser; the server's own are in server/error-codes.ts,
 * so their messages never reach the first-load JavaScript budget. Browser-safe.
 */
import { defineErrors } from '@tern/shared/errors/error-catalogue';

const pageNotFound = (path: string) => `Page Not Found: ${path}`;
/** The text is the caller's own: a middleware's error, a navigation rule. */
const given = (text: string) => text;

export const RENDERER_ERRORS = defineErrors({
  RENDERER_PAGE_NOT_FOUND: { statusCode: 404, statusMessage: (path: string) => `Page not found: ${path}` },
  RENDERER_VALIDATE_REJECTED: { statusCode: 404, statusMessage: pageNotFound },
  RENDERER_MIDDLEWARE_REFUSED: { statusCode: 404, statusMessage: pageNotFound },
  RENDERER_MIDDLEWARE_FAILED: { statusCode: 500, message: given },
  RENDERER_MIDDLEWARE_BAD_RESULT: { statusCode: 500, message: 'A route middleware answered something that is not a result' },
  RENDERER_UNKNOWN_MIDDLEWARE: { statusCode: 500, message: (name: string) => `Unknown route middleware: ${name}` },
  RENDERER_NAVIGATION_REFUSED: { statusCode: 400, statusMessage: 'Navigation refused', message: given },
  RENDERER_HTTP_CLIENT_FAILED: { statusCode: 500, message: given },
  RENDERER_NETWORK_ERROR: {
    statusCode: 503,
    statusMessage: 'Network Error',
    message: (url: string, why: string) => `Could not reach ${url}: ${why}`,
  },
  RENDERER_UNKNOWN_LAYOUT: { statusCode: 500, message: (name: string) => `Unknown layout: ${name}` },
});

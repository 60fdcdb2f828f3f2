/**
 * The renderer's error codes: pages, route middleware, navigation and the HTTP client (runtime),
 * sign-in and the APIs (server), and the site's own pages. Beside the three folders rather than in
 * server/, because the runtime and the app run in the browser too. Browser-safe.
 */
import { defineErrors } from '../../../lib/error-catalogue.js';

const pageNotFound = (path: string) => `Page Not Found: ${path}`;
/** The text is the caller's own: a middleware's error, a navigation rule, the site's login words (app/login-rules.ts). */
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
  RENDERER_LOADER_BAD_RESPONSE: { statusCode: 500, message: 'A loader answered a Response that is not a redirect' },
  RENDERER_CROSS_SITE_REFUSED: {
    statusCode: 403,
    message: (claimed: string | null, own: string) =>
      claimed ? `Cross-site request refused: ${claimed} is not ${own}` : 'Cross-site request refused: no Origin or Referer header',
  },
  RENDERER_LOGIN_INVALID: { statusCode: 400, statusMessage: 'Invalid login', message: given },
  RENDERER_WRONG_CREDENTIALS: { statusCode: 401, message: given },
  RENDERER_SIGN_IN_BLOCKED: {
    statusCode: 429,
    message: (minutes: number) => `Too many failed sign-ins. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  },
  RENDERER_SIGN_IN_REQUIRED: { statusCode: 401, message: 'Sign in to save recipes' },
  RENDERER_RECIPE_NOT_FOUND: { statusCode: 404, message: (id: string) => `No recipe with the id ${JSON.stringify(id)}` },
  RENDERER_SAVED_FORM_INVALID: { statusCode: 400, message: 'The form must say saved=true or saved=false' },
  RENDERER_CATEGORY_ID_INVALID: {
    statusCode: 400,
    message: 'Category id must be a lowercase slug: a-z, 0-9 and single hyphens, at most 64 characters',
  },
  RENDERER_CATEGORY_NOT_FOUND: { statusCode: 404, message: (id: string) => `Category not found: ${id}` },
  RENDERER_CATEGORY_PAGE_NOT_FOUND: { statusCode: 404, statusMessage: pageNotFound },
  RENDERER_UNKNOWN_LAYOUT: { statusCode: 500, message: (name: string) => `Unknown layout: ${name}` },
});

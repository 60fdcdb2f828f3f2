/**
 * The one registry of route middleware (see runtime/shared/middleware.ts): `global` ones run before
 * every page, `named` ones run where a page asks for them with `export const middleware = 'name'`.
 * A page may also export its own function. A name missing here raises
 * 'Unknown route middleware: {name}'.
 */
import type { MiddlewareRegistry, RouteMiddleware } from '@tern/runtime/shared/middleware';
import type { RouterContextProvider } from 'react-router';
import { viewerOf } from './viewer-services.js';
import { loginHref } from './components/safe-redirect.js';

/**
 * Pages for signed-in visitors only: anyone else goes to the login page, which brings them back.
 * The server decides (the browser's navigation asks the server for the payload, and a redirect
 * there becomes the navigation's redirect), so the session never has to be known in the browser.
 */
const signedIn: RouteMiddleware = async (to, { side, request, context }) => {
  if (side === 'client') return;
  const viewer = await viewerOf(context as RouterContextProvider, request);
  return viewer ? undefined : loginHref(to.fullPath);
};

export const middleware: MiddlewareRegistry = {
  global: [],
  named: {
    'signed-in': signedIn,
  },
};

/**
 * What the runtime needs to know of the app, handed in by the entries: the runtime never imports
 * `app/`, so the same runtime serves any app (and the test harnesses) without a module of the site
 * baked in.
 */
import type { MiddlewareRegistry } from './middleware.js';
import type { PageFile } from './page-module.js';

export interface AppDefinition {
  /** The page file a route id belongs to; undefined for layout and catch-all routes. */
  pageFileOf(routeId: string): PageFile | undefined;
  /** The catch-all route whose loader raises the 404. */
  notFoundRouteId: string;
  /** The route middleware pages name, and the global ones. */
  middleware: MiddlewareRegistry;
}

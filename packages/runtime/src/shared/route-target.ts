/** The route a page's `validate` and middleware see: its own file, as middleware.ts and page-module.ts both name it. */
import type { Params } from 'react-router';

export interface RouteTarget {
  /** The path with its query, as Nuxt's `to.fullPath`. */
  fullPath: string;
  path: string;
  params: Params;
}

/**
 * What the cookbook's server part hands its loaders (server/server.ts builds it): the content,
 * and the accounts as far as loaders need them. Page modules never import server code: they read
 * these through React Router's context, so the browser bundle stays free of it.
 */
import { siteServicesOf } from '@tern/site/services';
import type { RouterContextProvider } from 'react-router';
import type { ContentRepository } from '../content/types.js';
import type { SearchHit } from './search/run-search.js';

/** The signed-in visitor as loaders see it: who, and the ids of the recipes they saved. */
export interface Viewer {
  user: { id: string; email: string; name: string };
  saved: string[];
}

/** The accounts, as far as loaders need them (server/accounts.ts implements it). */
export interface AccountsView {
  /** The visitor whose session cookie `request` carries; null when anonymous. */
  viewer(request: Request): Promise<Viewer | null>;
  /** The email a sign-in by the plain form (no script yet) just failed with, to fill in again; '' if none. */
  typedEmail(request: Request): string;
}

/** The recipe search, as loaders use it (server/search/search-service.ts implements it). */
export interface SearchView {
  /** `query` canonical (app/search/query.ts); best first, at most MAX_RESULTS. */
  search(query: string): SearchHit[];
  /** Whether the page of this canonical query may be kept in the shared render cache (docs/decisions/search.md). */
  isCacheable(query: string): boolean;
}

export interface CookbookServices {
  content: ContentRepository;
  search: SearchView;
  /** Absent when the renderer runs without accounts (then every visitor is anonymous). */
  accounts?: AccountsView;
}

/** The services of this request; throws if a loader runs where there are none (the browser). */
export function servicesOf(context: RouterContextProvider): CookbookServices {
  return siteServicesOf<CookbookServices>(context);
}

/** The visitor of a loader's request, or null. */
export async function viewerOf(context: RouterContextProvider, request: Request): Promise<Viewer | null> {
  return (await servicesOf(context).accounts?.viewer(request)) ?? null;
}

/** The email to fill the login form with after a failed plain-form sign-in; '' without accounts. */
export function typedEmailOf(context: RouterContextProvider, request: Request): string {
  return servicesOf(context).accounts?.typedEmail(request) ?? '';
}

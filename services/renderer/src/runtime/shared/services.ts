/**
 * What server loaders may use, handed to them through React Router's context: page modules never
 * import server code, so the client bundle stays free of it. The server sets it per request.
 */
import { createContext, type RouterContextProvider } from 'react-router';
import type { ContentRepository } from '../../content/types.js';

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

export interface RendererServices {
  content: ContentRepository;
  /** Absent when the renderer runs without accounts (then every visitor is anonymous). */
  accounts?: AccountsView;
}

export const servicesContext = createContext<RendererServices>();

/** The visitor of a loader's request, or null. */
export async function viewerOf(context: RouterContextProvider, request: Request): Promise<Viewer | null> {
  return (await servicesOf(context).accounts?.viewer(request)) ?? null;
}

/** The email to fill the login form with after a failed plain-form sign-in; '' without accounts. */
export function typedEmailOf(context: RouterContextProvider, request: Request): string {
  return servicesOf(context).accounts?.typedEmail(request) ?? '';
}

/** The services of this request; throws if a loader runs where there are none (the browser). */
export function servicesOf(context: RouterContextProvider): RendererServices {
  return context.get(servicesContext);
}

/**
 * What the site's server part hands its loaders (its `services`: repositories, the visitor's
 * account…), through React Router's context: page modules never import server code, so the
 * browser bundle stays free of it. Opaque to the platform; the site reads it back with its own type.
 */
import { createContext, type RouterContextProvider } from 'react-router';

/** The site server's `services`, as the platform passes them on without looking inside. */
export type RendererServices = unknown;

export const servicesContext = createContext<RendererServices>();

/** The services of this request, as the site typed them; throws where there are none (the browser). */
export function siteServicesOf<T>(context: RouterContextProvider): T {
  return context.get(servicesContext) as T;
}

/**
 * What server loaders may use, handed to them through React Router's context: page modules never
 * import server code, so the client bundle stays free of it. The server sets it per request.
 */
import { createContext, type RouterContextProvider } from 'react-router';
import type { ContentRepository } from '../content/types.js';

export interface RendererServices {
  content: ContentRepository;
}

export const servicesContext = createContext<RendererServices>();

/** The services of this request; throws if a loader runs where there are none (the browser). */
export function servicesOf(context: RouterContextProvider): RendererServices {
  return context.get(servicesContext);
}

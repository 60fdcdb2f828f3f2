/**
 * How a page links its scripts and styles: from the client build's manifest in production, or
 * from Vite's dev server in development (server/dev-vite.ts), behind one interface.
 */
import { linksFor, type PageLinks, type ViteManifest } from './manifest-links.js';

export interface PageAssets {
  /** The entry, module preloads and stylesheets of a page made of these page modules. */
  links(pageFiles: readonly string[]): PageLinks;
  /** Extra <head> markup (development: Vite's client); scripts carry the request's nonce. */
  headHtml?(nonce: string): string;
  /** Extra CSP connect-src sources (development: Vite's HMR WebSocket). */
  connectSources?: readonly string[];
}

export function manifestAssets(manifest: ViteManifest, clientEntry: string, assetsPrefix: string): PageAssets {
  return { links: (pageFiles) => linksFor(manifest, clientEntry, pageFiles, assetsPrefix) };
}

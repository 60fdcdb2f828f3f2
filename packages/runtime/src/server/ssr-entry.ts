/**
 * The contract between the Node server and the SSR bundle Vite builds from entry-server.tsx:
 * the server owns HTTP, streaming and the document; the bundle owns routes, data and React.
 */
import { pathToFileURL } from 'node:url';
import type { ReactElement } from 'react';
import type { ErrorBody } from '@tern/shared/errors/errors';
import type { ResolvedHead, SiteHead } from '../shared/head.js';
import type { SiteServer, SiteServerContext, SiteServerInstance } from '@tern/site/define-site-server';
import type { RendererServices } from '@tern/site/services';

/** The loaded data of one page request, before it is rendered. */
export interface PageQuery {
  /** Loader data by route id (plain JSON). */
  data: Record<string, unknown>;
  /** What loaders threw, by the id of the route whose boundary shows it; null when none did. */
  errors: Record<string, unknown> | null;
  /** Manifest keys (source paths) of the matched page modules, for per-route links. */
  files: string[];
  /**
   * The Cache-Control the page's loader asked for (`data(value, { headers: { 'cache-control': … } })`),
   * e.g. `private` for an answer no shared cache should keep; undefined for the default.
   */
  cacheControl?: string | undefined;
  /** The page says it is the same for everyone but its personal parts (`export const personal = 'parts'`). */
  personalParts: boolean;
  /** The page's forced colour mode. */
  colorMode: 'light' | 'dark' | 'system' | undefined;
  /** The page's head (title, description, canonical) on `origin`. */
  head(origin: string): ResolvedHead;
  /** The React tree of the page; `errors` replaces the raw errors so server and browser agree. */
  element(options: { nonce: string; errors: Record<string, ErrorBody> | null; personal?: unknown }): ReactElement;
}

/** A personal part as the page's marker names it (docs/decisions/personal-holes.md). */
export interface PersonalPart {
  name: string;
  props: unknown;
}

/** What `personalPartsElement` puts between two parts, to cut the one render into each part's HTML. */
export const PART_SEPARATOR = '<template data-part-separator=""></template>';

export interface SsrEntry {
  /** The manifest key of the browser entry. */
  clientEntry: string;
  /** Runs the matched routes' validate, middleware and loaders; a redirect comes back as a Response. */
  queryPage(request: Request, services: RendererServices): Promise<Response | PageQuery>;
  /** The error page alone (no router), for when the page itself could not render. */
  errorElement(error: ErrorBody): ReactElement;
  /** The site's personal parts alone, for one visitor's state at `location` (path and query). */
  personalPartsElement(location: string, state: unknown, parts: PersonalPart[]): Promise<ReactElement>;
  /** The site's name and description, for the heads the server writes itself (errors, the shell). */
  site: SiteHead;
  /** The site's server part (its `defineSiteServer`), bundled here; null for a site without one. */
  siteServer: SiteServer | null;
}

/** The module Vite built (or is serving, in development), checked to be the SSR entry. */
export function checkSsrEntry(module: Partial<SsrEntry>, name: string): SsrEntry {
  if (
    typeof module.queryPage !== 'function' ||
    typeof module.clientEntry !== 'string' ||
    typeof module.errorElement !== 'function' ||
    typeof module.personalPartsElement !== 'function' ||
    typeof module.site?.name !== 'string'
  ) {
    throw new Error(`${name} is not the renderer's SSR bundle (run \`npm run build:renderer\`)`);
  }
  return module as SsrEntry;
}

export async function loadSsrEntry(file: string): Promise<SsrEntry> {
  return checkSsrEntry((await import(pathToFileURL(file).href)) as Partial<SsrEntry>, file);
}

/** Starts the site's server part, if the bundle carries one. */
export async function startSiteServer(entry: SsrEntry, context: SiteServerContext): Promise<SiteServerInstance | null> {
  return entry.siteServer ? entry.siteServer.start(context) : null;
}

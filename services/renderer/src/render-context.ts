/** What every page and payload answer needs, built once at start. */
import type { FastifyRequest } from 'fastify';
import type { BuildInfo } from '@tern/shared/build-store/types';
import { BUILD_ID_HEADER } from '@tern/shared/config/constants';
import type { RendererServices } from '@tern/site/services';
import { requestOrigin } from '@tern/site/request-origin';
import { remembered } from '@tern/shared/process/remembered';
import { linksFor, type PageLinks, type ViteManifest } from './manifest-links.js';
import type { PageAssets } from './page-assets.js';
import type { WholePageRenderer } from './whole-page.js';
import type { AppConfig } from '@tern/runtime/shared/app-config';
import type { SsrEntry } from '@tern/runtime/server/ssr-entry';

export interface RenderContext {
  entry: SsrEntry;
  manifest: ViteManifest;
  /** How pages link scripts and styles when not from `manifest` (development: Vite). */
  assets?: PageAssets;
  services: RendererServices;
  /** The site's visitor state for its personal parts (`SiteServerInstance.personal`); none: no parts. */
  personal?: ((request: Request) => Promise<unknown>) | undefined;
  build: BuildInfo;
  /** The site's session cookie (from the build meta): a payload for a request carrying it is private. */
  sessionCookie?: string | undefined;
  assetsPrefix: string;
  /** PUBLIC_ORIGIN; the request's own origin when unset. */
  publicOrigin: string | undefined;
  streamTimeoutMs: number;
  /** Renders a page in one pass where it can be (whole-page.ts); none (the dev server): every page streams. */
  wholePages?: WholePageRenderer;
  /** How often the browser checks for a newer build; the hour of docs/spec.md §4 when unset. */
  buildCheckIntervalMs?: number;
  production: boolean;
  /** False for paths whose route rule says `ssr: false`: they get the client-rendered shell. */
  ssr?: (path: string) => boolean;
}

export function originOf(context: RenderContext, request: FastifyRequest): string {
  return context.publicOrigin ?? requestOrigin(request);
}

/** Headers of every HTML page and payload: which build answered. */
export function buildHeaders(context: RenderContext): Record<string, string> {
  return { [BUILD_ID_HEADER]: context.build.id };
}

/**
 * A build's links by its page modules, per context: the same for every request of a page (walking
 * the manifest was 1.4 % of a render). Keyed by the modules' names, one per line.
 */
const linksByContext = new WeakMap<RenderContext, (pageFiles: string) => PageLinks>();

/** The entry, preloads and stylesheets of a page made of these page modules. */
export function pageLinks(context: RenderContext, pageFiles: readonly string[]): PageLinks {
  if (context.assets) return context.assets.links(pageFiles);
  let links = linksByContext.get(context);
  if (!links) {
    const { manifest, entry, assetsPrefix } = context;
    links = remembered((files) => linksFor(manifest, entry.clientEntry, files === '' ? [] : files.split('\n'), assetsPrefix), {
      maxEntries: 1000,
      maxKeyLength: 4096,
    });
    linksByContext.set(context, links);
  }
  return links(pageFiles.join('\n'));
}

/** The app configuration the document hands the browser (runtime/shared/app-config.ts reads it). */
export function appConfigOf(context: RenderContext, origin: string, crawler = false): AppConfig {
  return {
    buildId: context.build.id,
    publicOrigin: origin,
    assetsPrefix: context.assetsPrefix,
    ...(context.buildCheckIntervalMs ? { buildCheckIntervalMs: context.buildCheckIntervalMs } : {}),
    ...(crawler ? { crawler: true } : {}),
  };
}

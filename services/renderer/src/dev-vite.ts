/**
 * Development only: Vite in middleware mode serves the app's modules under the assets prefix,
 * with hot module replacement over its own WebSocket and its error overlay. The production
 * server never imports this file (Vite is a dev dependency).
 */
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ViteDevServer } from 'vite';
import type { PageAssets } from './page-assets.js';
import type { SiteDefinition } from '@tern/site/define-site';
import type { SiteServer } from '@tern/site/define-site-server';
import { siteFileOf } from '@tern/site/site-file';

/** The Vite config that builds a site (@tern/vite-plugin's), which the dev server runs as well. */
const VITE_CONFIG = createRequire(import.meta.url).resolve('@tern/vite-plugin/vite.config');
const CLIENT_ENTRY = 'src/entry-client.tsx';

export interface DevSite {
  definition: SiteDefinition;
  stylesheetFile: string | null;
  /** Its server part (`virtual:site-server`, as the server bundle imports it), or null. */
  server: SiteServer | null;
  /** The server part's file, whose module graph a restart follows (dev-restart.ts). */
  serverFile: string | null;
}

/** The site the dev server builds (SITE, else the project package.json's `tern.site`, else site/site.ts), read through Vite as the build reads it. */
export async function loadDevSite(vite: ViteDevServer): Promise<DevSite> {
  const file = siteFileOf(process.env);
  const definition = ((await vite.ssrLoadModule(file)) as { default: SiteDefinition }).default;
  const server = ((await vite.ssrLoadModule('virtual:site-server')) as { default: SiteServer | null }).default;
  const beside = (path: string | undefined) => (path ? resolve(dirname(file), path) : null);
  return { definition, stylesheetFile: beside(definition.stylesheet), server, serverFile: beside(definition.server) };
}

export async function startVite(hmrPort: number): Promise<ViteDevServer> {
  const { createServer } = await import('vite');
  return createServer({
    configFile: VITE_CONFIG,
    appType: 'custom',
    // The bundling loader writes a temporary file beside the config, which node --watch takes for an edit.
    configLoader: 'runner',
    server: { middlewareMode: true, hmr: { port: hmrPort } },
  });
}

/** Vite answers everything under the assets prefix: modules, CSS, pre-bundled dependencies. */
export function mountVite(app: FastifyInstance, vite: ViteDevServer, assetsPrefix: string): void {
  app.addHook('onRequest', (request, reply, done) => {
    if (!request.url.startsWith(assetsPrefix)) return done();
    reply.hijack();
    vite.middlewares(request.raw, reply.raw, () => {
      reply.raw.statusCode = 404;
      reply.raw.end(`Not found: ${request.url}`);
    });
  });
}

/**
 * The head scripts Vite adds in development (its client, React Fast Refresh's preamble), with a
 * nonce per request so the page's strict CSP lets them run.
 */
export async function devAssets(
  vite: ViteDevServer,
  assetsPrefix: string,
  hmrPort: number,
  stylesheetFile: string | null,
): Promise<PageAssets> {
  const html = await vite.transformIndexHtml('/', '<!DOCTYPE html><html><head></head><body></body></html>');
  const head = /<head>([\s\S]*)<\/head>/.exec(html)?.[1]?.trim() ?? '';
  return {
    links: () => ({
      entry: assetsPrefix + CLIENT_ENTRY,
      modulepreload: [],
      // Linked too, so a full load is styled before the app's JavaScript runs (Vite serves it by its path).
      stylesheets: stylesheetFile ? [`${assetsPrefix}@fs${stylesheetFile}`] : [],
    }),
    headHtml: (nonce) => head.replaceAll('<script', `<script nonce="${nonce}"`),
    // The browser opens Vite's HMR WebSocket on its own port (CSP 'self' covers the page's port only).
    connectSources: [`ws://localhost:${hmrPort}`, `ws://127.0.0.1:${hmrPort}`],
  };
}

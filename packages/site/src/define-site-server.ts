/**
 * The server half of a site, bundled into the server bundle only: what its loaders may use
 * (`services`), its own server routes (an API, sign-in…) and readiness checks. Started once by the
 * renderer, before it listens; closed when it closes.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { ReadinessCheck } from '@tern/shared/http/service';

export interface SiteServerContext {
  logger: FastifyBaseLogger;
  /** The process environment: the site reads (and validates) its own settings from it. */
  env: NodeJS.ProcessEnv;
  /** `npm run dev`: the site may rebuild its data as its sources change (see `SiteServerInstance.dev`). */
  dev: boolean;
}

export interface SiteServerInstance {
  /** What loaders get with `siteServicesOf(context)`. */
  services: unknown;
  /** The site's server routes, registered before the pages. Paths under `/api/` stay out of the page route. */
  routes?: (app: FastifyInstance) => Promise<void>;
  /** More `/readyz` checks, by name. */
  checks?: Record<string, ReadinessCheck>;
  close?: () => Promise<void>;
  /**
   * The state of the visitor a request carries for the site's personal parts (its
   * `definePersonal`), from their session alone (no page render); undefined or null when
   * anonymous. docs/decisions/personal-holes.md.
   */
  personal?: (request: Request) => Promise<unknown>;
  /** `npm run dev`: folders whose changes `rebuild` takes in; the open pages then reload their data. */
  dev?: { watch: string[]; rebuild: (file: string) => Promise<void> };
}

export interface SiteServer {
  start(context: SiteServerContext): Promise<SiteServerInstance>;
}

export function defineSiteServer(server: SiteServer): SiteServer {
  return server;
}

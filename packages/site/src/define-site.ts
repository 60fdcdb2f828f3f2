/**
 * The one entry a site hands the platform (Nuxt's `nuxt.config.ts`): what the build, the gateway
 * and the services' configs need to know of it. Plain data and paths, so the build reads it without
 * loading React or the site's server code: `app` is bundled for the browser and the server,
 * `server` into the server bundle only. Browser-safe; no package dependencies.
 */
import type { RouteRulesInput } from '@tern/shared/route-rules/route-rules';
// By path: Vite loads this file with the site's definition, before any alias applies.
import { validSessionCookie } from '@tern/shared/build-store/types';

export interface SiteDefinition {
  /** The site's name: the title suffix of every page (`Login | {name}`). */
  name: string;
  /** The description of a page that gives none. */
  description: string;
  /** The site's app module (a `defineSiteApp` default export), relative to this file. */
  app: string;
  /** The site's server module (a `defineSiteServer` default export), relative to this file; none, no server part. */
  server?: string;
  /** The site's stylesheet (Tailwind's entry), relative to this file: linked by every page. */
  stylesheet?: string;
  /**
   * The cookie that marks a signed-in visitor. It travels in the build meta: the gateway never
   * answers a request that carries it from the render cache. None: only `Authorization` does.
   */
  sessionCookie?: string;
  /** Route rules (redirects, headers, swr / isr / cache, prerender, ssr: false), by path pattern. */
  routeRules?: RouteRulesInput;
  /**
   * Environment defaults of this site for every service and CLI, under what the environment sets
   * (their configs read them from site.json; each image carries it): e.g. its Redis key prefix, the
   * icon sets worth preloading.
   */
  defaults?: Record<string, string>;
  /**
   * Files the site's own build step writes before the bundle, which its server reads at run time
   * (JSON), relative to this file: each counts in the build id (new data, new build), and the icons
   * they name are drawn by the server (never in the browser's bundle).
   */
  dataFiles?: string[];
}

const ENV_NAME = /^[A-Z][A-Z0-9_]*$/;

/** Checks a definition where a mistake would only show far away (a cookie the gateway never sees). */
export function defineSite(site: SiteDefinition): SiteDefinition {
  if (!site.name.trim()) throw new Error('defineSite: name must not be empty');
  // The check the gateway and the renderer make of the build meta: a name passed here is never refused there.
  if (!validSessionCookie(site.sessionCookie))
    throw new Error(`defineSite: sessionCookie ${JSON.stringify(site.sessionCookie)} is not a cookie name`);
  for (const name of Object.keys(site.defaults ?? {}))
    if (!ENV_NAME.test(name)) throw new Error(`defineSite: defaults.${name} is not an environment variable name`);
  return site;
}

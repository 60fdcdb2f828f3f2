/**
 * `site.json`, written beside the server bundle by the build (build/site-plugin.ts): what the build
 * meta and every service's config take from a site's `defineSite` without loading its code.
 */
import type { RouteRulesInput } from '@tern/shared/route-rules/route-rules';

export interface SiteJson {
  name: string;
  routeRules: RouteRulesInput;
  sessionCookie?: string;
  /** The site's data files, relative to the build folder: they count in the build id. */
  dataFiles: string[];
  /** Environment defaults for every service and CLI, under what the environment sets (packages/shared/src/config/site-defaults.ts). */
  defaults: Record<string, string>;
}

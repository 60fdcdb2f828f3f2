/**
 * A site's environment defaults (its `defineSite` `defaults`: its Redis key prefix, the icon sets
 * worth preloading…), read from the site.json its build wrote beside the server bundle, under what
 * the environment sets. Every service's config (packages/shared/src/config/service-config.ts `loadConfig`) and every CLI reads
 * through them; each container image carries the site.json (packages/cli/src/containers/trace-services.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildDir } from './paths.js';

/** Its name, beside the server bundle (the renderer's build writes it there). */
export const SITE_JSON = 'site.json';
/** `npm run dev` points every service at the site.json of the site it runs (packages/cli/src/dev-site.ts). */
export const SITE_JSON_FILE = process.env.SITE_JSON_FILE || join(buildDir, 'ssr', SITE_JSON);

/** The defaults of the built site; none when there is no build yet. A malformed file throws, named. */
export function readSiteDefaults(file = SITE_JSON_FILE): Record<string, string> {
  if (!existsSync(file)) return {};
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as { defaults?: unknown };
  const defaults = parsed.defaults ?? {};
  const valid = typeof defaults === 'object' && defaults !== null && Object.values(defaults).every((value) => typeof value === 'string');
  if (!valid) throw new Error(`${file}: defaults must map variable names to strings`);
  return defaults as Record<string, string>;
}

/** `env` with the site's defaults where it sets nothing (an empty value counts as unset, as in packages/shared/src/config/service-config.ts). */
export function withSiteDefaults(env: NodeJS.ProcessEnv, defaults: Record<string, string> = readSiteDefaults()): NodeJS.ProcessEnv {
  const filled = { ...env };
  for (const [name, value] of Object.entries(defaults)) if (!filled[name]) filled[name] = value;
  return filled;
}

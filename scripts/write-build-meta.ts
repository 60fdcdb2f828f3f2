/**
 * Build step: compiles the site's route rules (from the site.json the renderer's build wrote
 * beside the server bundle) into dist/build/meta.json, the build meta the renderer publishes to
 * the build store at start. A bad rule stops the build, named.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildMeta } from '../lib/build-store/types.js';
import { buildDir } from '../lib/paths.js';
import { normalizeRouteRules, RouteRuleError, type CompiledRouteRules } from '../lib/route-rules.js';
import { SITE_JSON_FILE } from '../lib/site-defaults.js';
import type { SiteJson } from '../services/renderer/src/site-api/site-json.js';

/** The inputs that define a build; a missing one simply does not count. */
export const BUILD_ID_INPUTS = ['client/.vite/manifest.json', 'content/content.json'] as const;

/** A content hash: the same client bundle, content and rules give the same id on any machine. */
export function computeBuildId(root: string, matcher: CompiledRouteRules): string {
  const hash = createHash('sha256');
  for (const input of BUILD_ID_INPUTS) {
    const path = join(root, input);
    hash.update(`${input}\0`);
    hash.update(existsSync(path) ? readFileSync(path) : '\0missing');
    hash.update('\0');
  }
  hash.update(JSON.stringify(matcher));
  return hash.digest('hex').slice(0, 16);
}

/** The site's part of the build, as the renderer's build wrote it beside the server bundle. */
export function readSiteJson(file = SITE_JSON_FILE): SiteJson {
  if (!existsSync(file)) throw new Error(`${file} is missing: build the renderer first (npm run build:renderer)`);
  return JSON.parse(readFileSync(file, 'utf8')) as SiteJson;
}

export function createBuildMeta(root: string, site: Pick<SiteJson, 'routeRules'>, now = Date.now()): BuildMeta {
  const matcher = normalizeRouteRules(site.routeRules);
  return { id: computeBuildId(root, matcher), timestamp: now, matcher, prerendered: [] };
}

function main(): void {
  try {
    const meta = createBuildMeta(buildDir, readSiteJson());
    mkdirSync(join(buildDir, 'build'), { recursive: true });
    writeFileSync(join(buildDir, 'build', 'meta.json'), `${JSON.stringify(meta, null, 2)}\n`);
    process.stdout.write(`build meta: ${meta.id} (${Object.keys(meta.matcher).length} route rules)\n`);
  } catch (error) {
    if (!(error instanceof RouteRuleError)) throw error;
    process.stderr.write(`build meta: ${error.message}\n`);
    process.exit(1);
  }
}

// Run as a script (npm run build:meta); importing it for tests does not write anything.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();

/**
 * Build step: compiles the site's route rules (from the site.json the renderer's build wrote
 * beside the server bundle) into dist/build/meta.json, the build meta the renderer publishes to
 * the build store at start. A bad rule stops the build, named.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildMeta } from '@tern/shared/build-store/types';
import { buildDir } from '@tern/shared/config/paths';
import { normalizeRouteRules, RouteRuleError, type CompiledRouteRules } from '@tern/shared/route-rules/route-rules';
import { SITE_JSON_FILE } from '@tern/shared/config/site-defaults';
import type { SiteJson } from '@tern/site/site-json';
import { COLOR_MODE_PAGE_VARY } from '@tern/runtime/shared/color-mode';

/** The client bundle's manifest: a new client, a new build. The site's data files count too. */
const CLIENT_MANIFEST = 'client/.vite/manifest.json';

export interface BuildIdInputs {
  matcher: CompiledRouteRules;
  sessionCookie?: string | undefined;
  /** The site's data files, relative to `root`. */
  dataFiles: readonly string[];
}

/**
 * A content hash: the same client bundle, site data, rules and session cookie give the same id on
 * any machine. A missing file counts as missing.
 */
export function computeBuildId(root: string, { matcher, sessionCookie, dataFiles }: BuildIdInputs): string {
  const hash = createHash('sha256');
  for (const input of [CLIENT_MANIFEST, ...dataFiles]) {
    const path = join(root, input);
    hash.update(`${input}\0`);
    hash.update(existsSync(path) ? readFileSync(path) : '\0missing');
    hash.update('\0');
  }
  hash.update(JSON.stringify(matcher));
  if (sessionCookie) hash.update(`\0${sessionCookie}`);
  return hash.digest('hex').slice(0, 16);
}

/** The site's part of the build, as the renderer's build wrote it beside the server bundle. */
export function readSiteJson(file = SITE_JSON_FILE): SiteJson {
  if (!existsSync(file)) throw new Error(`${file} is missing: build the renderer first (npm run build:renderer)`);
  return JSON.parse(readFileSync(file, 'utf8')) as SiteJson;
}

export function createBuildMeta(
  root: string,
  site: Pick<SiteJson, 'routeRules' | 'sessionCookie' | 'dataFiles'>,
  now = Date.now(),
): BuildMeta {
  const matcher = normalizeRouteRules(site.routeRules);
  const id = computeBuildId(root, { matcher, sessionCookie: site.sessionCookie, dataFiles: site.dataFiles });
  // What the renderer reads of every request beyond its path: the gateway keys its cache on it.
  const pageVaries = [COLOR_MODE_PAGE_VARY];
  return { id, timestamp: now, matcher, prerendered: [], pageVaries, ...(site.sessionCookie ? { sessionCookie: site.sessionCookie } : {}) };
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

/**
 * Build step: compiles the site's route rules into dist/build/meta.json, the build meta the
 * renderer publishes to the build store at start. A bad rule stops the build, named.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildMeta } from '../lib/build-store/types.js';
import { buildDir } from '../lib/paths.js';
import { normalizeRouteRules, RouteRuleError, type CompiledRouteRules } from '../lib/route-rules.js';
import { routeRules } from '../site.config.js';

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

export function createBuildMeta(root: string, now = Date.now()): BuildMeta {
  const matcher = normalizeRouteRules(routeRules);
  // The cookie the renderer's sign-in sets (services/renderer/src/server/auth/limits.ts).
  return { id: computeBuildId(root, matcher), timestamp: now, matcher, prerendered: [], sessionCookie: 'cookbook_session' };
}

function main(): void {
  try {
    const meta = createBuildMeta(buildDir);
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

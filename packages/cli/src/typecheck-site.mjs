#!/usr/bin/env node
/**
 * `npm run typecheck`'s last step: the types of the site SITE names, when it is not the project's
 * own site (package.json `tern.site`, whose folder the project's tsconfigs already cover). A tsconfig
 * is written for it under `{BUILD_DIR}/dev/typecheck/`, with the app settings of @tern/runtime's
 * tsconfig (bundler resolution, the "source" condition, Vite's `import.meta.glob` types), and tsc
 * checks every TypeScript file of the site's folder.
 *
 *   SITE=../blog/site.ts npm run typecheck
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(new URL('../../..', import.meta.url)));

/** The folder of the project's own site: package.json `tern.site`, else site/site.ts (as @tern/site reads it). */
function ownSiteDir(projectRoot) {
  const manifest = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8'));
  return dirname(resolve(projectRoot, manifest.tern?.site ?? join('site', 'site.ts')));
}

/** The tsconfig that checks the site's folder, or null when SITE names no other site. */
export function siteTsconfig(env, projectRoot = root) {
  if (!env.SITE) return null;
  const siteFile = resolve(projectRoot, env.SITE);
  if (!existsSync(siteFile)) throw new Error(`SITE: no such file: ${siteFile}`);
  const siteDir = dirname(siteFile);
  const inside = relative(ownSiteDir(projectRoot), siteDir);
  if (!inside.startsWith('..') && !inside.startsWith(sep)) return null;
  return {
    extends: join(projectRoot, 'packages', 'runtime', 'tsconfig.json'),
    // A site outside the project is outside the base config's rootDir: this check emits nothing.
    compilerOptions: { noEmit: true, rootDir: '/', types: ['node', 'vite/client'] },
    include: [join(siteDir, '**', '*.ts'), join(siteDir, '**', '*.tsx')],
    exclude: [join(siteDir, '**', 'node_modules'), join(siteDir, '**', 'dist')],
  };
}

function main() {
  const config = siteTsconfig(process.env);
  if (!config) return 0;
  const buildDir = resolve(root, process.env.BUILD_DIR || 'dist');
  const id = createHash('sha256').update(config.include[0]).digest('hex').slice(0, 10);
  const file = join(buildDir, 'dev', 'typecheck', `tsconfig.${id}.json`);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`);
  process.stdout.write(`typecheck: the site of ${process.env.SITE}\n`);
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  return spawnSync(process.execPath, [tsc, '-p', file], { stdio: 'inherit' }).status ?? 1;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main();

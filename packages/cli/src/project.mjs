/**
 * Where the command line works, for the plain-JavaScript scripts that run before anything is
 * compiled (build.mjs, build-steps.mjs): the same project packages/shared/src/config/paths.ts finds,
 * and whether the platform runs from its own checkout (its sources compiled here) or installed
 * under a site's node_modules (compiled when it was packed).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** The nearest folder above `start` whose package.json is not one of the platform's (@tern/*). */
function findProjectRoot(start) {
  for (let dir = start; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file) && !JSON.parse(readFileSync(file, 'utf8')).name?.startsWith('@tern/')) return dir;
    if (dirname(dir) === dir) throw new Error(`no project package.json above ${start}`);
  }
}

export const projectRoot = findProjectRoot(here);

/** True in the platform's checkout; false where the packages were installed from npm or a tarball. */
export const fromSource = !here.includes(`${sep}node_modules${sep}`);

const require = createRequire(import.meta.url);

/** A platform package's folder, wherever npm put it (its package.json is exported). */
export const packageDir = (name) => dirname(require.resolve(`${name}/package.json`));

/** The compiled script of one of this package's modules (`prerender` -> dist/prerender.js). */
export const cliScript = (name) => join(here, '..', 'dist', `${name}.js`);

/** Vite's command line script, as @tern/vite-plugin finds Vite. */
export function viteBin() {
  const fromPlugin = createRequire(join(packageDir('@tern/vite-plugin'), 'package.json'));
  return join(dirname(fromPlugin.resolve('vite/package.json')), 'bin', 'vite.js');
}

/** The Vite config that builds a site (it finds the site itself: SITE, or package.json's `tern.site`). */
export const viteConfig = () => join(packageDir('@tern/vite-plugin'), 'vite.config.ts');

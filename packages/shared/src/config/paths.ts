/** Where the project and its build output live, whether run from source or from dist/. */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

function findProjectRoot(start: string): string {
  let dir = start;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${start}`);
    dir = parent;
  }
  return dir;
}

export const projectRoot = findProjectRoot(dirname(fileURLToPath(import.meta.url)));
/** Everything `npm run build` writes: dist/, or BUILD_DIR (another site's build, e.g. a test's). */
export const buildDir = process.env.BUILD_DIR ? resolve(process.env.BUILD_DIR) : join(projectRoot, 'dist');
/** The embedded build store's files. */
export const defaultBuildStoreDir = join(buildDir, 'build-store');
/** Durable embedded data (the users file): outside dist/, so a clean rebuild keeps it. */
export const defaultDataDir = join(projectRoot, '.data');

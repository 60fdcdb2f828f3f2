/** Where the project and its build output live, whether run from source or from dist/. */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The `tern` field of the project's package.json: where its site and its public files are. */
export interface ProjectSettings {
  /** The site's `defineSite` file, relative to the project (default site/site.ts). */
  site?: string;
  /** The folder the image service serves sources from, relative to the project (default public). */
  public?: string;
}

interface Manifest {
  name?: string;
  tern?: ProjectSettings;
}

function manifestAt(dir: string): Manifest | null {
  const file = join(dir, 'package.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Manifest) : null;
}

/**
 * The nearest folder above `start` with a package.json that is not one of the platform's own
 * packages (@tern/*): the workspace root here, the site's folder where the packages are installed
 * under its node_modules.
 */
function findProjectRoot(start: string): string {
  let dir = start;
  for (;;) {
    const manifest = manifestAt(dir);
    if (manifest && !manifest.name?.startsWith('@tern/')) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no project package.json above ${start}`);
    dir = parent;
  }
}

export const projectRoot = findProjectRoot(dirname(fileURLToPath(import.meta.url)));
export const projectSettings: ProjectSettings = manifestAt(projectRoot)?.tern ?? {};
/** The image service's source folder unless IMAGE_DIR says otherwise. */
export const defaultPublicDir = join(projectRoot, projectSettings.public ?? 'public');
/** Everything `npm run build` writes: dist/, or BUILD_DIR (another site's build, e.g. a test's). */
export const buildDir = process.env.BUILD_DIR ? resolve(process.env.BUILD_DIR) : join(projectRoot, 'dist');
/** The embedded build store's files. */
export const defaultBuildStoreDir = join(buildDir, 'build-store');
/** Durable embedded data (the users file): outside dist/, so a clean rebuild keeps it. */
export const defaultDataDir = join(projectRoot, '.data');

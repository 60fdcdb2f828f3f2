/**
 * The files `tsc -p tsconfig.json` would emit: its `include` folders' TypeScript files less its
 * `exclude` patterns, and every project file they import (tsc emits an excluded file that an
 * included one imports, e.g. apps/cookbook/src/app/site-name.ts, type-only imports included). Imports are
 * read from the import and export statements' relative specifiers and those naming a workspace
 * package (`@tern/shared/redis/connection`: its `src/`, as the exports map's `source` condition says).
 *
 * Each workspace package compiles into its own `dist/` (`packages/shared/src/redis/connection.ts` ->
 * `packages/shared/dist/redis/connection.js`), which its exports map's `default` condition names, so
 * Node finds a package's compiled modules through node_modules/@tern/* as it would an installed one.
 * Files outside the packages (bench/) go to dist/node/, in the layout tsc gives them.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';

const TYPESCRIPT = /\.tsx?$/;

/** tsconfig's exclude patterns as tests on a root-relative path (only the forms it uses). */
function excluder(patterns) {
  const tests = patterns.map((pattern) => {
    // `**/*.test.ts`: a file name pattern anywhere.
    if (pattern.startsWith('**/')) {
      const name = new RegExp(`^${pattern.slice(3).replace(/\./g, '\\.').replace(/\*/g, '[^/]*')}$`);
      return (path) => name.test(path.split('/').pop());
    }
    // A folder or a file: itself and everything under it.
    return (path) => path === pattern || path.startsWith(`${pattern}/`);
  });
  return (path) => tests.some((test) => test(path));
}

function* walk(root, path) {
  let stat;
  try {
    stat = statSync(join(root, path));
  } catch {
    return; // an include folder a build context does not copy (the Dockerfile has no bench/)
  }
  if (stat.isFile()) {
    yield path;
    return;
  }
  for (const name of readdirSync(join(root, path)).sort()) yield* walk(root, `${path}/${name}`);
}

/** `services/*\/src`: the one wildcard form tsconfig's include uses. */
function includeRoots(root, include) {
  return include.flatMap((pattern) => {
    const star = pattern.indexOf('/*/');
    if (star === -1) return [pattern];
    const parent = pattern.slice(0, star);
    let names = [];
    try {
      names = readdirSync(join(root, parent)).sort();
    } catch {
      return [];
    }
    return names.map((name) => `${parent}/${name}/${pattern.slice(star + 3)}`);
  });
}

/** The included files, before imports are followed. */
export function includedSources(root) {
  const config = JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8'));
  const excluded = excluder(config.exclude ?? []);
  const files = [];
  for (const start of includeRoots(root, config.include ?? [])) {
    for (const path of walk(root, start)) {
      if (TYPESCRIPT.test(path) && !path.endsWith('.d.ts') && !excluded(path)) files.push(path);
    }
  }
  return files;
}

/** The workspace packages: name -> folder, from the root package.json's `workspaces`. */
export function workspacePackages(root) {
  // A folder with no package.json (a test's) has no workspace packages.
  const manifest = join(root, 'package.json');
  const { workspaces = [] } = existsSync(manifest) ? JSON.parse(readFileSync(manifest, 'utf8')) : {};
  const packages = new Map();
  for (const dir of workspaces) {
    const own = join(root, dir, 'package.json');
    if (existsSync(own)) packages.set(JSON.parse(readFileSync(own, 'utf8')).name, dir);
  }
  return packages;
}

const packagesByRoot = new Map();

/** The workspace package folder a root-relative path belongs to, or null. */
function packageDirOf(root, path) {
  if (!packagesByRoot.has(root)) packagesByRoot.set(root, workspacePackages(root));
  for (const dir of packagesByRoot.get(root).values()) if (path.startsWith(`${dir}/`)) return dir;
  return null;
}

/**
 * Where esbuild writes a source file, root-relative and without the extension: its package's
 * dist/ for a file under the package's src/, dist/node/ for anything else.
 */
export function compiledStem(root, path) {
  const dir = packageDirOf(root, path);
  const stem = path.replace(/\.(tsx?|mts)$/, '');
  if (dir && path.startsWith(`${dir}/src/`)) return `${dir}/dist/${stem.slice(dir.length + 5)}`;
  return `dist/node/${stem}`;
}

/** The compiled .js of a source file, root-relative. */
export const compiledPath = (root, path) => `${compiledStem(root, path)}.js`;

/** `@tern/shared/redis/connection` -> `packages/shared/src/redis/connection`, or null for a package not in the workspace. */
function workspaceTarget(packages, specifier) {
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  const dir = packages.get(name);
  if (!dir) return null;
  const sub = parts.slice(specifier.startsWith('@') ? 2 : 1).join('/');
  return sub ? `${dir}/src/${sub}` : `${dir}/src/index`;
}

/** The project files one source imports (types included, as tsc follows them), by their .ts path. */
function importsOf(root, path, packages = workspacePackages(root)) {
  const text = readFileSync(join(root, path), 'utf8');
  const found = [];
  for (const [, specifier] of text.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)) {
    let target;
    if (specifier.startsWith('.')) target = posix.join(posix.dirname(path), specifier);
    else target = workspaceTarget(packages, specifier);
    if (!target) continue;
    const base = target.replace(/\.js$/, '');
    for (const candidate of [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`]) {
      if (existsSync(join(root, candidate))) {
        found.push(candidate);
        break;
      }
    }
  }
  return found;
}

/** `entries` and every project source file they import, transitively; root-relative, sorted. */
export function importClosure(root, entries) {
  const packages = workspacePackages(root);
  const files = new Set(entries);
  const queue = [...files];
  while (queue.length > 0) {
    for (const imported of importsOf(root, queue.pop(), packages)) {
      if (files.has(imported) || imported.startsWith('node_modules/')) continue;
      files.add(imported);
      queue.push(imported);
    }
  }
  return [...files].sort();
}

/** Every source file to compile, root-relative with forward slashes, sorted. */
export function serverSources(root) {
  return importClosure(root, includedSources(root));
}

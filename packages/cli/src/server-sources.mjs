/**
 * The files `tsc -p tsconfig.json` would emit: its `include` folders' TypeScript files less its
 * `exclude` patterns, and every project file they import (tsc emits an excluded file that an
 * included one imports, e.g. apps/cookbook/src/app/site-name.ts, type-only imports included). Imports are
 * read from the import and export statements' relative and `#lib/` specifiers.
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

/** The project files one source imports (types included, as tsc follows them), by their .ts path. */
function importsOf(root, path) {
  const text = readFileSync(join(root, path), 'utf8');
  const found = [];
  for (const [, specifier] of text.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)) {
    let target;
    if (specifier.startsWith('#lib/')) target = `lib/${specifier.slice(5)}`;
    else if (specifier.startsWith('.')) target = posix.join(posix.dirname(path), specifier);
    else continue;
    const base = target.replace(/\.js$/, '');
    for (const candidate of [`${base}.ts`, `${base}.tsx`]) {
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
  const files = new Set(entries);
  const queue = [...files];
  while (queue.length > 0) {
    for (const imported of importsOf(root, queue.pop())) {
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

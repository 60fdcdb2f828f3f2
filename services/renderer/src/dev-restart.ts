/**
 * The dev renderer asks for a fresh process when what it set up once at start has changed: the
 * site's server part (its routes are registered before the server listens, and Fastify takes no
 * route after that) or the site's `defaults` (read by every config at start). It imports a marker
 * module at start (DEV_RESTART_FILE, set by `npm run dev`) and rewrites it to restart: `node
 * --watch`, which runs it, restarts a process when a module it imported changes. The gateway keeps
 * serving meanwhile.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ViteDevServer, EnvironmentModuleNode } from 'vite';
import type { SiteDefinition } from '@tern/site/define-site';
import type { SiteJson } from '@tern/site/site-json';

const markerSource = () => `// Rewritten by the dev renderer to have node --watch restart it.\nexport default ${Date.now()};\n`;

/** Imports the marker (made if missing) so node --watch follows it; returns what restarts the process. */
export async function restartMarker(file: string | undefined): Promise<() => void> {
  if (!file) return () => undefined;
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, markerSource());
  }
  await import(pathToFileURL(file).href);
  return () => writeFileSync(file, markerSource());
}

/** The files of the server part's module graph (its own imports, not the app's). */
export function serverGraphFiles(vite: ViteDevServer, serverFile: string): Set<string> {
  const graph = vite.environments.ssr.moduleGraph;
  const files = new Set<string>();
  const visit = (node: EnvironmentModuleNode) => {
    if (!node.file || files.has(node.file) || node.file.includes('/node_modules/')) return;
    files.add(node.file);
    for (const imported of node.importedModules) visit(imported);
  };
  for (const node of graph.getModulesByFile(serverFile) ?? []) visit(node);
  return files;
}

/**
 * Calls `onChange` when a saved, added or removed file belongs to the server part: a new route, a
 * changed handler, a new module it imports.
 */
export function watchServerPart(vite: ViteDevServer, serverFile: string, onChange: (file: string) => void): void {
  const check = (file: string) => {
    if (file === serverFile || serverGraphFiles(vite, serverFile).has(file)) onChange(file);
  };
  for (const event of ['change', 'unlink'] as const) vite.watcher.on(event, check);
}

/**
 * Writes the site.json of the site under development where every service of the run reads its
 * defaults (SITE_JSON_FILE, set by `npm run dev`); true when its defaults differ from the file's
 * before, which this process and the others read at their start.
 */
export function writeDevSiteJson(file: string, definition: SiteDefinition): boolean {
  const json: SiteJson = {
    name: definition.name,
    routeRules: definition.routeRules ?? {},
    ...(definition.sessionCookie ? { sessionCookie: definition.sessionCookie } : {}),
    dataFiles: [],
    defaults: definition.defaults ?? {},
  };
  let before: Partial<SiteJson> = {};
  try {
    before = JSON.parse(readFileSync(file, 'utf8')) as Partial<SiteJson>;
  } catch {
    // No file yet (the first dev start of this site), or a broken one: written again below.
  }
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(json, null, 2)}\n`);
  return JSON.stringify(before.defaults ?? {}) !== JSON.stringify(json.defaults);
}

/**
 * Per-request links from Vite's manifest: `modulepreload` for the entry and the matched pages'
 * chunks with every chunk they import, stylesheets for their CSS. Nothing for unmatched pages.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

export type ViteManifest = Record<string, ManifestChunk>;

/** Shared by every request of a page (render-context.ts keeps them): read, never changed. */
export interface PageLinks {
  /** The module script that starts the browser app. */
  readonly entry: string;
  readonly modulepreload: readonly string[];
  readonly stylesheets: readonly string[];
}

export async function readViteManifest(clientDir: string): Promise<ViteManifest> {
  const file = join(clientDir, '.vite', 'manifest.json');
  try {
    return JSON.parse(await readFile(file, 'utf8')) as ViteManifest;
  } catch (error) {
    throw new Error(`cannot read the client manifest ${file} (run \`npm run build:renderer\`)`, { cause: error });
  }
}

/** The links of `keys` (manifest keys: the entry first, then the matched pages), each file once. */
export function linksFor(manifest: ViteManifest, entryKey: string, pageKeys: readonly string[], prefix: string): PageLinks {
  const entry = manifest[entryKey];
  if (!entry) throw new Error(`the client manifest has no entry ${entryKey}`);
  const scripts = new Set<string>();
  const styles = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || scripts.has(chunk.file)) return;
    scripts.add(chunk.file);
    for (const css of chunk.css ?? []) styles.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(entryKey);
  for (const key of pageKeys) visit(key);
  scripts.delete(entry.file);
  return {
    entry: prefix + entry.file,
    modulepreload: [...scripts].map((file) => prefix + file),
    stylesheets: [...styles].map((file) => prefix + file),
  };
}

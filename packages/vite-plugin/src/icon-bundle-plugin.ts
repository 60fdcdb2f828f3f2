/**
 * Vite plugin: `import icons from 'virtual:icon-bundle'` gives the server and the client bundle
 * their icon data (see icon-bundle.ts), so SSR and hydration draw identical SVG.
 *
 * The client's bundle holds the UI's icons (UI_ICON_NAMES and the names in the app's and the site's
 * source) but not those of the site's data (its `serverIconData`): those are drawn by the server,
 * and the browser takes them from the server's
 * HTML at hydration (adoptServerIcons in app/components/ui/icon.tsx) or, on a client navigation,
 * from the icon service. They were 8 KB (br) of the first load on every page. The UI icons drawn
 * only after hydration (toasts, copy buttons) are the late bundle's, imported by the parts that
 * draw them (`useLateIcons`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';
import type { Plugin } from 'vite';
import { LATE_UI_ICON_NAMES, UI_ICON_NAMES } from '@tern/runtime/shared/icons-registry';
import { buildIconBundle, iconNamesInText, sourceFiles } from './icon-bundle.js';

export const ICON_BUNDLE_ID = 'virtual:icon-bundle';
/** The icons drawn only after hydration; the client's main bundle leaves them to this one. */
export const LATE_ICON_BUNDLE_ID = 'virtual:icon-bundle/late';
const RESOLVED_ID = `\0${ICON_BUNDLE_ID}`;
const RESOLVED_LATE_ID = `\0${LATE_ICON_BUNDLE_ID}`;
const RENDERER_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export interface IconBundlePluginOptions {
  /** Data files (JSON) the site's build wrote before the Vite build; their icon names are bundled for the server. */
  dataFiles?: string[];
  /** Folders whose source files are scanned for literal icon names. */
  sourceDirs?: string[];
  /** More names to bundle. */
  icons?: string[];
  /** Leave the data files' icon names out of the client environment's bundle (default true). */
  dataIconsOnServerOnly?: boolean;
}

export function iconBundlePlugin(options: IconBundlePluginOptions = {}): Plugin {
  const dataFiles = options.dataFiles ?? [];
  const sourceDirs = options.sourceDirs ?? [resolve(RENDERER_ROOT, 'src/app')];
  return {
    name: 'platform:icon-bundle',
    resolveId(id) {
      if (id === ICON_BUNDLE_ID) return RESOLVED_ID;
      return id === LATE_ICON_BUNDLE_ID ? RESOLVED_LATE_ID : null;
    },
    load(id) {
      if (id === RESOLVED_LATE_ID)
        return `export default ${JSON.stringify(buildIconBundle(LATE_UI_ICON_NAMES, (message) => this.warn(message)))};`;
      if (id !== RESOLVED_ID) return null;
      const client = (this as { environment?: { name?: string } }).environment?.name === 'client';
      const names = new Set<string>([...UI_ICON_NAMES, ...(options.icons ?? [])]);
      for (const file of sourceFiles(sourceDirs)) {
        this.addWatchFile(file);
        for (const name of iconNamesInText(readFileSync(file, 'utf8'))) names.add(name);
      }
      const withData = !(client && (options.dataIconsOnServerOnly ?? true));
      for (const file of withData ? dataFiles.filter((path) => existsSync(path)) : []) {
        this.addWatchFile(file);
        for (const name of iconNamesInText(readFileSync(file, 'utf8'))) names.add(name);
      }
      if (client) for (const name of LATE_UI_ICON_NAMES) names.delete(name);
      const bundle = buildIconBundle(names, (message) => this.warn(message));
      return `export default ${JSON.stringify(bundle)};`;
    },
  };
}

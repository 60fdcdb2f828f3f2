/**
 * Vite plugin: builds the renderer for one site. It reads the site's `defineSite` entry (by Vite's
 * module runner, as Vite reads its own config) and gives the platform's entries the site's parts:
 * `virtual:site-app` (the app module: pages, layouts, middleware), `virtual:site-server` (the server module, in
 * the server bundle only; null without one), `virtual:site-styles` (its stylesheet) and `virtual:site`
 * (its head words and app folder).
 * The server build writes `site.json` beside the server bundle: what the build meta and every
 * service's config (its `defaults`) take from the site, so none has to load its code.
 */
import { existsSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { runnerImport, type Plugin } from 'vite';
import { buildDir } from '@tern/shared/config/paths';
import type { SiteDefinition } from '@tern/site/define-site';
import { SITE_JSON } from '@tern/shared/config/site-defaults';
import type { SiteJson } from '@tern/site/site-json';

const APP_ID = 'virtual:site-app';
const SERVER_ID = 'virtual:site-server';
const STYLES_ID = 'virtual:site-styles';
const NO_STYLES = '\0site-styles:none';
const VIRTUAL_ID = 'virtual:site';
const NO_SERVER = '\0site-server:none';
/** `appDir` as the browser's bundle has it: page files named `./pages/...` (see sitePlugin). */
export const CLIENT_APP_DIR = '.';

export interface LoadedSite {
  file: string;
  definition: SiteDefinition;
  appFile: string;
  serverFile: string | null;
  stylesheetFile: string | null;
  /** Its data files, absolute. */
  dataFiles: string[];
}

/** The definition a site file exports by default, with its parts' files checked to exist. */
export async function loadSite(file: string): Promise<LoadedSite> {
  const { module } = await runnerImport<{ default?: SiteDefinition }>(file);
  const definition = module.default;
  if (!definition || typeof definition.app !== 'string') throw new Error(`${file} does not export a defineSite({...}) by default`);
  const part = (path: string, what: string) => {
    const found = resolve(dirname(file), path);
    if (!existsSync(found)) throw new Error(`${file}: its ${what} module ${path} does not exist`);
    return found;
  };
  return {
    file,
    definition,
    appFile: part(definition.app, 'app'),
    serverFile: definition.server ? part(definition.server, 'server') : null,
    stylesheetFile: definition.stylesheet ? part(definition.stylesheet, 'stylesheet') : null,
    // Written by the site's build step, so perhaps not yet: checked by the build meta, which needs them.
    dataFiles: (definition.dataFiles ?? []).map((path) => resolve(dirname(file), path)),
  };
}

/** What the build meta and the services' configs read of the site (no code: names, rules, defaults). */
export function siteJsonOf({ definition, dataFiles }: LoadedSite): SiteJson {
  return {
    name: definition.name,
    routeRules: definition.routeRules ?? {},
    dataFiles: dataFiles.map((file) => relative(buildDir, file).split('\\').join('/')),
    ...(definition.sessionCookie ? { sessionCookie: definition.sessionCookie } : {}),
    defaults: definition.defaults ?? {},
  };
}

export function sitePlugin(site: LoadedSite, rendererRoot: string): Plugin {
  const head = {
    name: site.definition.name,
    description: site.definition.description,
    appDir: relative(rendererRoot, dirname(site.appFile)).split('\\').join('/'),
  };
  // The browser reads no manifest, so its page files need not start with the manifest's prefix
  // (`../../apps/<site>/src/app`, first-load bytes of every page): they are named from the app folder.
  const clientHead = { ...head, appDir: CLIENT_APP_DIR };
  return {
    name: 'platform:site',
    resolveId(id) {
      if (id === APP_ID) return site.appFile;
      if (id === SERVER_ID) return site.serverFile ?? NO_SERVER;
      if (id === STYLES_ID) return site.stylesheetFile ?? NO_STYLES;
      if (id === VIRTUAL_ID) return `\0${VIRTUAL_ID}`;
      return null;
    },
    load(id) {
      if (id === NO_SERVER) return 'export default null;';
      if (id === NO_STYLES) return '';
      if (id === `\0${VIRTUAL_ID}`) {
        const client = (this as { environment?: { name?: string } }).environment?.name === 'client';
        return `export default ${JSON.stringify(client ? clientHead : head)};`;
      }
      return null;
    },
    generateBundle() {
      if ((this as { environment?: { name?: string } }).environment?.name !== 'ssr') return;
      this.emitFile({ type: 'asset', fileName: SITE_JSON, source: `${JSON.stringify(siteJsonOf(site), null, 2)}\n` });
    },
  };
}

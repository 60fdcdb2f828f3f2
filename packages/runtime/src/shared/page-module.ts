/**
 * What a page file (a site's app/pages/**) may export, Nuxt's `definePageMeta` as plain exports:
 * the component, a loader, `validate`, `layout`, `middleware`, a forced `colorMode` and `head`.
 * Browser-safe.
 */
import type { ComponentType } from 'react';
import type { LoaderFunctionArgs } from 'react-router';
import type { PageHeadInput } from './head.js';
import type { MiddlewareRef } from './middleware.js';
import type { RouteTarget } from './route-target.js';

/** `validate` may answer true, false, or its own status and message (Nuxt's shape). */
export type ValidateResult = boolean | { statusCode?: number; statusMessage?: string; message?: string };

export type PageValidate = (route: RouteTarget) => ValidateResult | Promise<ValidateResult>;

/** A page's middleware: a name from the site's middleware registry or its own function (runtime/shared/middleware.ts). */
export type PageMiddleware = MiddlewareRef;

export interface PageModule {
  default: ComponentType;
  loader?: (args: LoaderFunctionArgs) => unknown;
  validate?: PageValidate;
  /** A layout name from the site's layouts, or false to render the page alone. */
  layout?: string | false;
  middleware?: PageMiddleware | PageMiddleware[];
  colorMode?: 'light' | 'dark' | 'system';
  head?: PageHeadInput;
  /**
   * `'parts'`: the page is the same for every visitor but its personal parts (`definePersonal`),
   * so the gateway serves signed-in visitors its shared cache entry with their parts spliced in.
   * Otherwise (its loader reads the visitor) they get a render of their own.
   */
  personal?: 'parts';
}

/** The named exports of a page module that are data, not components (hot reload leaves them be). */
export const PAGE_DATA_EXPORTS = [
  'loader',
  'validate',
  'layout',
  'middleware',
  'colorMode',
  'head',
  'personal',
] as const satisfies readonly (keyof PageModule)[];

/** What a page route carries in `handle` once its module is loaded. */
export interface PageHandle {
  page: {
    id: string;
    Component: ComponentType;
    /** Source path relative to the renderer root, the key of Vite's manifest. */
    file: string;
    layout: string | false;
    colorMode: PageModule['colorMode'] | undefined;
    /** The page's own middleware (names or functions), e.g. to tell a signed-in-only page. */
    middleware: PageModule['middleware'];
    head: PageHeadInput | undefined;
    personal: PageModule['personal'];
  };
}

export function isPageHandle(value: unknown): value is PageHandle {
  return typeof value === 'object' && value !== null && 'page' in value;
}

export interface PageFile {
  /** Route id, Nuxt's route name: `index`, `login`, `posts-id`. */
  id: string;
  /** React Router path: `/`, `/login`, `/posts/:id`. */
  path: string;
  /**
   * Source path relative to the renderer root, the key of Vite's manifest: `../../site/app/pages/posts/[id].tsx`.
   * In the browser, which reads no manifest, relative to the app folder: `./pages/posts/[id].tsx`.
   */
  file: string;
  load: () => Promise<PageModule>;
}

const PAGES_DIR = './pages/';

/**
 * The page files found by `import.meta.glob('./pages/**\/*.tsx')` (keys relative to the site's app
 * folder, `appDir` from the renderer's root) as routes, with Nuxt's naming: `[id]` is a parameter,
 * `index` the folder itself. Static paths sort before dynamic ones so `/posts/new` would beat `/posts/:id`.
 */
export function pageFilesFrom(modules: Record<string, () => Promise<PageModule>>, appDir: string): PageFile[] {
  return Object.entries(modules)
    .map(([key, load]) => {
      if (!key.startsWith(PAGES_DIR)) throw new Error(`page outside ./pages/: ${key}`);
      const segments = key
        .slice(PAGES_DIR.length)
        .replace(/\.tsx$/, '')
        .split('/');
      if (segments.at(-1) === 'index') segments.pop();
      const path = `/${segments.map((s) => s.replace(/^\[(\w+)\]$/, ':$1')).join('/')}`;
      const id = segments.length === 0 ? 'index' : segments.map((s) => s.replace(/^\[(\w+)\]$/, '$1')).join('-');
      return { id, path, file: `${appDir}/${key.slice(2)}`, load };
    })
    .sort((a, b) => Number(a.path.includes(':')) - Number(b.path.includes(':')) || byCodeUnits(a.path, b.path));
}

// Not localeCompare: the first call builds an ICU collator, ~25 ms of a phone's main thread while
// the page hydrates, and the order must not depend on the browser's locale anyway.
const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The handle of a page route once its module is loaded. */
export function pageHandleOf(file: PageFile, module: PageModule): PageHandle {
  return {
    page: {
      id: file.id,
      Component: module.default,
      file: file.file,
      layout: module.layout ?? 'default',
      colorMode: module.colorMode,
      middleware: module.middleware,
      head: module.head,
      personal: module.personal,
    },
  };
}
